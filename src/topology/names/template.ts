/**
 * Renders a naming template: Go `text/template` named "template name generator", `missingkey=error`, no functions
 * beyond Go's builtins (`names.go` `templateGenerator.GenerateName`). Errors carry CAPI's wrapping
 * (`parsing template "<t>": …`, `rendering template: …`).
 *
 * Interim: field chains (`{{ .a.b }}`, with trim markers) only, until the shared Go template engine is wired in.
 */
import { NamingTemplateError } from './errors.js';

const templateName = 'template name generator';

export function renderNamingTemplate(template: string, data: Record<string, unknown>): string {
  let out = '';
  let i = 0;
  while (i < template.length) {
    const open = template.indexOf('{{', i);
    if (open < 0) {
      out += template.slice(i);
      break;
    }
    let text = template.slice(i, open);
    let start = open + 2;
    if (template.startsWith('- ', start)) {
      text = text.trimEnd();
      start += 1;
    }
    out += text;
    const close = template.indexOf('}}', start);
    if (close < 0) {
      const line = template.slice(0, open).split('\n').length;
      throw new NamingTemplateError(`parsing template ${JSON.stringify(template)}: template: ${templateName}:${line}: unclosed action`);
    }
    let end = close;
    let trimAfter = false;
    if (template[close - 1] === '-' && template[close - 2] === ' ') {
      end = close - 1;
      trimAfter = true;
    }
    const action = template.slice(start, end).trim();
    if (!/^(\.[A-Za-z_][A-Za-z0-9_]*)+$/.test(action)) {
      throw new NamingTemplateError(`parsing template ${JSON.stringify(template)}: template: ${templateName}: unsupported action {{${action}}}`);
    }
    let cur: unknown = data;
    for (const key of action.slice(1).split('.')) {
      if (typeof cur !== 'object' || cur === null || !(key in cur)) {
        throw new NamingTemplateError(
          `rendering template: template: ${templateName}: executing "${templateName}" at <${action}>: map has no entry for key "${key}"`,
        );
      }
      cur = (cur as Record<string, unknown>)[key];
    }
    out += String(cur);
    i = close + 2;
    if (trimAfter) while (i < template.length && /\s/.test(template[i] as string)) i++;
  }
  return out;
}
