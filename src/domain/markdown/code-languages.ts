/** The language name Zulip puts in `data-code-language`: Pygments' name for a known alias, else the alias itself. */

// A subset of Pygments' lexers (alias → lexer name); Zulip canonicalises `js` to `JavaScript` and so on.
const PYGMENTS_NAMES: ReadonlyMap<string, string> = new Map(
  Object.entries({
    'Bash': ['bash', 'sh', 'ksh', 'zsh', 'shell'],
    'Bash Session': ['console', 'shell-session'],
    'C': ['c'],
    'C#': ['csharp', 'c#', 'cs'],
    'C++': ['cpp', 'c++'],
    'Clojure': ['clojure', 'clj'],
    'CSS': ['css'],
    'Dart': ['dart'],
    'Diff': ['diff', 'udiff'],
    'Docker': ['docker', 'dockerfile'],
    'Elixir': ['elixir', 'ex', 'exs'],
    'Erlang': ['erlang'],
    'Go': ['go', 'golang'],
    'GraphQL': ['graphql'],
    'Groovy': ['groovy'],
    'Haskell': ['haskell', 'hs'],
    'HTML': ['html'],
    'INI': ['ini', 'cfg', 'dosini'],
    'Java': ['java'],
    'JavaScript': ['javascript', 'js'],
    'JSON': ['json'],
    'Kotlin': ['kotlin'],
    'Lua': ['lua'],
    'Makefile': ['make', 'makefile', 'mf', 'bsdmake'],
    'Markdown': ['markdown', 'md'],
    'Nginx configuration file': ['nginx'],
    'Objective-C': ['objective-c', 'objectivec', 'obj-c', 'objc'],
    'OCaml': ['ocaml'],
    'Perl': ['perl', 'pl'],
    'PHP': ['php', 'php3', 'php4', 'php5'],
    'PowerShell': ['powershell', 'pwsh', 'posh', 'ps1', 'psm1'],
    'Python': ['python', 'py', 'sage', 'python3', 'py3'],
    'Python 2.x': ['python2', 'py2'],
    'Python console session': ['pycon'],
    'Ruby': ['ruby', 'rb', 'duby'],
    'Rust': ['rust', 'rs'],
    'Scala': ['scala'],
    'SCSS': ['scss'],
    'SQL': ['sql'],
    'Swift': ['swift'],
    'TeX': ['tex', 'latex'],
    'Text only': ['text'],
    'TOML': ['toml'],
    'TSX': ['tsx'],
    'TypeScript': ['typescript', 'ts'],
    'XML': ['xml'],
    'YAML': ['yaml'],
  }).flatMap(([name, aliases]) => aliases.map((alias): [string, string] => [alias, name])),
);

/** `language` is the fence's language, already lowercased as Zulip does. */
export function codeLanguageName(language: string): string {
  return PYGMENTS_NAMES.get(language) ?? language;
}
