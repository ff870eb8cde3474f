/**
 * GitHub Actions' side of the conversation, as the runner defines it: inputs arrive as `INPUT_<NAME>` variables,
 * annotations and masks are workflow commands on stdout, outputs and the job summary are files the runner names.
 * Every text that may hold the token passes through `Runner.text` first.
 */
import { appendFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { ConfigError } from '../errors.js';

/** What the action writes to: the process's streams in production, buffers in tests. */
export interface RunnerIO {
  env: NodeJS.ProcessEnv;
  stdout: (text: string) => void;
}

/** GitHub's limit for one step's summary (1 MiB); a longer one is dropped whole, so it is cut before. */
export const summaryLimitBytes = 1024 * 1024;

export class Runner {
  private readonly secrets: string[] = [];

  constructor(readonly io: RunnerIO) {}

  /** `INPUT_<NAME>` as the runner sets it: the name upper-cased, spaces turned into `_`, hyphens kept. */
  input(name: string, fallback = ''): string {
    const v = this.io.env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`];
    return v === undefined || v.trim() === '' ? fallback : v.trim();
  }

  /** A yes/no input; anything but YAML 1.2's true/false words is a ConfigError naming the input. */
  flag(name: string, fallback: boolean): boolean {
    const v = this.input(name);
    if (v === '') return fallback;
    if (['true', 'True', 'TRUE'].includes(v)) return true;
    if (['false', 'False', 'FALSE'].includes(v)) return false;
    throw new ConfigError(`input ${name} is "${v}", not true or false`, { where: `with.${name}`, hint: `set ${name}: true or ${name}: false` });
  }

  /** Masks a credential in the job log from here on (`::add-mask::`) and in every text this runner writes. */
  mask(secret: string): void {
    if (secret === '') return;
    this.secrets.push(secret);
    this.io.stdout(`::add-mask::${escapeData(secret)}\n`);
  }

  text(s: string): string {
    let out = s;
    for (const secret of this.secrets) out = out.split(secret).join('***');
    return out;
  }

  log(line: string): void {
    this.io.stdout(`${this.text(line)}\n`);
  }

  warning(message: string, title?: string): void {
    this.io.stdout(`::warning${title ? ` title=${escapeProperty(title)}` : ''}::${escapeData(this.text(message))}\n`);
  }

  error(message: string, title?: string): void {
    this.io.stdout(`::error${title ? ` title=${escapeProperty(title)}` : ''}::${escapeData(this.text(message))}\n`);
  }

  group(title: string): void {
    this.io.stdout(`::group::${escapeData(title)}\n`);
  }

  endGroup(): void {
    this.io.stdout('::endgroup::\n');
  }

  /** A step output (`GITHUB_OUTPUT`, heredoc form with a random delimiter, so a value can never end it early). */
  output(name: string, value: string): void {
    const file = this.io.env.GITHUB_OUTPUT;
    if (!file) return;
    const delimiter = `capiform_${randomBytes(12).toString('hex')}`;
    appendFileSync(file, `${name}<<${delimiter}\n${this.text(value)}\n${delimiter}\n`);
  }

  /** Appends markdown to the job summary (`GITHUB_STEP_SUMMARY`), cut to GitHub's size limit. */
  summary(markdown: string): void {
    const file = this.io.env.GITHUB_STEP_SUMMARY;
    if (!file) return;
    appendFileSync(file, cutBytes(this.text(markdown), summaryLimitBytes));
  }
}

/** `text` cut to at most `limit` UTF-8 bytes, at a line end, with a note saying so. */
export function cutBytes(text: string, limit: number): string {
  if (Buffer.byteLength(text, 'utf8') <= limit) return text;
  const note = '\n\n> ✂️ cut here: the job summary is limited to 1 MiB.\n';
  let cut = Buffer.from(text, 'utf8').subarray(0, limit - Buffer.byteLength(note, 'utf8')).toString('utf8');
  // A partial multi-byte character decodes as U+FFFD; a line end is a clean place to stop anyway.
  const nl = cut.lastIndexOf('\n');
  if (nl > 0) cut = cut.slice(0, nl);
  return cut + note;
}

// The runner's own escaping (actions/toolkit command.ts), so a message cannot start a command of its own.
function escapeData(s: string): string {
  return s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

function escapeProperty(s: string): string {
  return escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
}
