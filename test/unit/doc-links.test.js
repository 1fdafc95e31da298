// Every relative link in README.md and docs/ names a file that exists and, with #anchor, a
// heading in it: moving a section out of the README must take its links along.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const DOCS = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

// GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered.
function anchorsOf(markdown) {
  const seen = new Map();
  const anchors = new Set();
  const text = markdown.replace(/^```[\s\S]*?^```/gm, '');
  for (const [, heading] of text.matchAll(/^#{1,6} +(.+?) *$/gm)) {
    const slug = heading.toLowerCase().replace(/[^\p{L}\p{N} _-]/gu, '').replace(/ /g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count ? `${slug}-${count}` : slug);
  }
  return anchors;
}

function linksOf(markdown) {
  const text = markdown.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1]).filter((href) => !/^[a-z]+:/.test(href));
}

test('every relative link in README.md and docs/ reaches a file and, with an anchor, a heading in it', () => {
  const broken = [];
  for (const doc of DOCS) {
    const markdown = readFileSync(join(ROOT, doc), 'utf8');
    for (const href of linksOf(markdown)) {
      const [path, anchor] = href.split('#');
      const target = path ? join(dirname(join(ROOT, doc)), path) : join(ROOT, doc);
      if (!existsSync(target)) {
        broken.push(`${doc}: ${href} (no ${relative(ROOT, target)})`);
        continue;
      }
      if (anchor && target.endsWith('.md') && !anchorsOf(readFileSync(target, 'utf8')).has(anchor)) {
        broken.push(`${doc}: ${href} (no heading #${anchor} in ${relative(ROOT, target)})`);
      }
    }
  }
  assert.deepEqual(broken, []);
});

test('the anchors follow GitHub\'s rule: punctuation dropped, spaces to hyphens, repeats numbered', () => {
  const anchors = anchorsOf('# Two HTTP engines: `--engine loadtest|fast`\n## Where the time goes: each tier\'s CPU\n' +
    '## Notes\n## Notes\n```\n# not a heading\n```\n');
  assert.deepEqual([...anchors], [
    'two-http-engines---engine-loadtestfast', 'where-the-time-goes-each-tiers-cpu', 'notes', 'notes-1',
  ]);
});
