/**
 * RFC 6570 URL templates, as linkifiers and code playgrounds hold them: whether a template is
 * well formed (Zulip's `uri_template.validate`), the variables it names, and its expansion
 * (the url-template library, which implements the RFC's encoding rules per operator).
 */
import { parseTemplate } from 'url-template';

/** Characters a literal may hold: the RFC's set, i.e. not controls, space, `"` `'` `<` `>` `\` `^` `` ` `` `{` `|` `}`, and `%` only as a %-escape. */
const LITERAL = /^(?:[^\x00-\x20"'%<>\\^`{|}\x7f]|%[0-9A-Fa-f]{2})*$/u;
const OPERATOR = /^[+#./;?&]/;
const VARSPEC = /^((?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})(?:\.?(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2}))*)(?::[1-9][0-9]{0,3}|\*)?$/;

/** The variable names of a well-formed template, in order of appearance; undefined if it is not one. */
export function templateVariables(template: string): string[] | undefined {
  const names: string[] = [];
  let rest = template;
  while (rest !== '') {
    const open = rest.indexOf('{');
    const close = rest.indexOf('}');
    const literal = open < 0 ? rest : rest.slice(0, open);
    if (!LITERAL.test(literal) || (close >= 0 && (open < 0 || close < open))) return undefined;
    if (open < 0) break;
    const end = rest.indexOf('}', open);
    if (end < 0) return undefined;
    let expression = rest.slice(open + 1, end);
    if (OPERATOR.test(expression)) expression = expression.slice(1);
    if (expression === '') return undefined;
    for (const spec of expression.split(',')) {
      const match = VARSPEC.exec(spec);
      if (!match) return undefined;
      if (!names.includes(match[1])) names.push(match[1]);
    }
    rest = rest.slice(end + 1);
  }
  return names;
}

export const isUrlTemplate = (template: string) => templateVariables(template) !== undefined;

/** Expands a well-formed template; variables without a value are left out, as the RFC says. */
export function expandTemplate(template: string, values: Readonly<Record<string, string | undefined>>): string {
  const defined: Record<string, string> = {};
  for (const [name, value] of Object.entries(values)) if (value !== undefined) defined[name] = value;
  return parseTemplate(template).expand(defined);
}
