/**
 * Renders a naming template as `names.go` `templateGenerator.GenerateName` does: Go `text/template` named
 * "template name generator", `missingkey=error`, no functions beyond Go's builtins, errors wrapped as
 * `parsing template "<t>": …` and `rendering template: …`.
 *
 * A class's naming template is the same for every Cluster of a fleet, so parsed templates are kept (bounded).
 */
import { goValueFromJSON, parseTemplate, type GoTemplate } from '../../go/template/index.js';
import { NamingTemplateError } from './errors.js';

const templateName = 'template name generator';
const cache = new Map<string, GoTemplate>();
const maxCached = 256;

function parsed(template: string): GoTemplate {
  const hit = cache.get(template);
  if (hit) return hit;
  let tpl: GoTemplate;
  try {
    tpl = parseTemplate(templateName, template, { missingKey: 'error' });
  } catch (err) {
    throw new NamingTemplateError(`parsing template ${JSON.stringify(template)}: ${(err as Error).message}`);
  }
  if (cache.size >= maxCached) cache.delete(cache.keys().next().value as string);
  cache.set(template, tpl);
  return tpl;
}

export function renderNamingTemplate(template: string, data: Record<string, unknown>): string {
  const tpl = parsed(template);
  try {
    return tpl.execute(goValueFromJSON(data));
  } catch (err) {
    throw new NamingTemplateError(`rendering template: ${(err as Error).message}`);
  }
}
