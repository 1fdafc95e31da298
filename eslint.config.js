// npm run lint: neostandard (the standard style, maintained), with this codebase's
// semicolons, trailing commas on multi-line lists and no space before a function's parentheses.
import neostandard from 'neostandard';

export default [
  ...neostandard({ semi: true }),
  {
    rules: {
      '@stylistic/space-before-function-paren': ['error', { anonymous: 'never', named: 'never', asyncArrow: 'always' }],
      '@stylistic/comma-dangle': ['error', 'always-multiline'],
      // `return void skip(t, reason)` ends a test after skipping it, in one line.
      'no-void': 'off',
      // Loops here wait on counters that callbacks change (`while (inFlight > 0) await ...`),
      // which this rule cannot see.
      'no-unmodified-loop-condition': 'off',
      // Lines fit in 120 columns; a URL may not be cut, so a line holding one is let be.
      '@stylistic/max-len': ['error', { code: 120, tabWidth: 2, ignoreUrls: true, ignoreRegExpLiterals: true }],
    },
  },
  {
    // The product (what the package ships: the entry points and the library's folders) has no
    // function over 100 lines, blank lines and comments not counted: past that, a function does
    // several jobs, and named helpers read better. Not held to it: test/, where a long function is
    // a suite (a list of cases around the servers they share), and bench/, scripts/ and examples/,
    // run by hand, whose main is one procedure read top to bottom.
    // No comment in the product may change a rule (a disable comment would be ignored, and the
    // problem stay): its few exceptions are below, each with its reason.
    files: ['**/*.{js,cjs,mjs}'],
    ignores: ['test/**', 'bench/**', 'scripts/**', 'examples/**'],
    linterOptions: { noInlineConfig: true },
    rules: {
      'max-lines-per-function': ['error', { max: 100, skipBlankLines: true, skipComments: true }],
    },
  },
  {
    // The HTML report's scripts run in the browser, inlined into the page after the libraries
    // whose globals they use (uPlot's constructor is not capitalised).
    files: ['report/html-client.js'],
    languageOptions: { globals: { uPlot: 'readonly', document: 'readonly', window: 'readonly' } },
    rules: { 'new-cap': ['error', { newIsCapExceptions: ['uPlot'] }] },
  },
  {
    files: ['report/html-flame-client.js'],
    languageOptions: { globals: { d3: 'readonly', flamegraph: 'readonly', document: 'readonly' } },
  },
  {
    // printable() finds control characters: its pattern has to name them.
    files: ['util/printable.js'],
    rules: { 'no-control-regex': 'off' },
  },
];
