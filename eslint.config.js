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
];
