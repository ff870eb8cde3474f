/**
 * The comment's text: the review `capiform diff --format markdown` printed, headed by what the check found, bounded
 * by GitHub's comment limit (a longer body is refused with 422, so it is cut with a note pointing at the job summary,
 * which holds all of it).
 */
import { commentMarker } from './comments.js';

/** GitHub refuses a comment body longer than this many characters. */
export const commentLimit = 65_536;

/** What `render --check --frozen` and `validate` said, for the comment's head. */
export interface CheckOutcome {
  /** `render --check --frozen`, `validate`. */
  command: string;
  exitCode: number;
  /** Its stderr (and stdout), already masked, shown when it failed. */
  output: string;
}

/** The command that makes a failing check pass, as the comment shows it. */
export const fixCommand = 'npx capiform lock && npx capiform render';

const fence = (text: string): string => {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const f = '`'.repeat(longest + 1);
  return `${f}text\n${text.replace(/\s+$/, '')}\n${f}`;
};

/** The check's part of the comment: nothing when every check passed. */
export function checkSection(checks: readonly CheckOutcome[]): string {
  const failed = checks.filter((c) => c.exitCode !== 0);
  if (failed.length === 0) return '';
  const lines = ['#### ❌ The committed tree is not what the config renders', ''];
  for (const c of failed) {
    lines.push(`\`capiform ${c.command}\` exited ${c.exitCode}:`, '', fence(boundLines(c.output, 40, 4000)), '');
  }
  lines.push(
    `Fix: \`${fixCommand}\`, then commit \`capi.lock.yaml\` and the tree. (A Renovate branch is fixed by the re-lock job: see docs/github-action.md.)`,
    '',
    'The review below compares the trees as committed.',
    '',
  );
  return lines.join('\n');
}

function boundLines(text: string, maxLines: number, maxChars: number): string {
  let lines = text.split('\n');
  const more = lines.length - maxLines;
  if (more > 0) lines = [...lines.slice(0, maxLines), `… ${more} more lines in the job log`];
  const out = lines.join('\n');
  return out.length > maxChars ? `${out.slice(0, maxChars)}\n… cut (see the job log)` : out;
}

/**
 * The body: the marker first (that is how the next run finds this comment), then the check, then the review.
 * `summaryUrl` is where the whole review is when the body had to be cut.
 */
export function commentBody(review: string, checks: readonly CheckOutcome[], summaryUrl: string | undefined, limit = commentLimit): { body: string; cut: boolean } {
  const rest = review.startsWith(commentMarker) ? review.slice(commentMarker.length).replace(/^\n/, '') : review;
  const body = `${commentMarker}\n${checkSection(checks)}${rest}`;
  if (body.length <= limit) return { body, cut: false };
  const where = summaryUrl ? `[the job summary](${summaryUrl})` : 'the job summary';
  const note = `\n\n> ✂️ The review is cut here: it is longer than GitHub's ${limit.toLocaleString('en-US')}-character comment limit. All of it is in ${where}.\n`;
  let cut = body.slice(0, limit - note.length - 8);
  const nl = cut.lastIndexOf('\n');
  if (nl > commentMarker.length) cut = cut.slice(0, nl);
  // A cut inside a code fence would swallow the note: close the fence.
  const fences = cut.match(/^```/gm)?.length ?? 0;
  if (fences % 2 === 1) cut += '\n```';
  return { body: cut + note, cut: true };
}
