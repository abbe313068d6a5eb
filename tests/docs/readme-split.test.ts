// The README is what a newcomer needs in the first hour; everything else lives in docs/, one file
// per area (issue #22). This holds the split: the README stays short with the two commands on its
// first screen (CI runs the test command it gives), every section and decision of the README
// before the split still has exactly one home, every docs/ file is linked from the README, and
// every relative link resolves. (scripts/check-readme-split.ts checked the move line by line.)
import { describe, expect, it } from 'vitest';
import { brokenLink, documentationFiles, read, relativeLinks } from './markdown.js';

/** Headings of README.md before the split (issue #22); each is now a heading in exactly one file. */
const sectionHeadings = [
  'Community Activism Service',
  'First hour',
  'Running on PostgreSQL',
  'Migrations',
  'Several processes',
  'Layout',
  'Configuration',
  'Security',
  'Video uploads (tus)',
  'Companion chat',
  'Image uploads',
  'Sign in with Apple and Google',
  'Web front end (`web/`)',
  'Activist safety',
];

/** The lead-ins of the README's decisions before the split; each now opens its text in exactly one file. */
const decisionLeadIns = [
  'Decisions where the spec says "not shown"',
  '**Demo data.**',
  '**The first admin.**',
  '**PGlite belongs to one process.**',
  '**Stopping.**',
  '**Health for a balancer.**',
  '**Startup problems are named, not stack-traced:**',
  '**Idempotency-Key on creates.**',
  '**No request values in the log.**',
  '**Fail fast while the database is down.**',
  '**CORS: none by default.**',
  '**Docs headers.**',
  '**The API reference sends nothing to third parties.**',
  '**Wire conventions.**',
  '**What a generated client may send**',
  '**Sessions.**',
  '**Accounts.**',
  '**Magic links.**',
  '**Lockout and guessing.**',
  '**Distributed lockout (issue #21).**',
  '**Credentials.**',
  '**Calendar feed.**',
  '**Enumeration.**',
  '**Places.**',
  '**Place reviews and lists.**',
  '**Events, groves, organizations.**',
  '**Events list order.**',
  '**Friends**',
  '**Notifications**',
  '**Media library and guides.**',
  '*Watchlist*',
  '*Guides*',
  '**Conversations and messages.**',
  '*Removing a member, and what a grove exit cuts*',
  '*Lifetime:*',
  '*Encryption at rest:*',
  '*Realtime:*',
  '**Action log.**',
  '*Attended events*',
  '*Export*',
  '*Aggregates*',
  '**Posts, feed, reactions, comments, saves**',
  '**Reports and moderation.**',
  '*Reported messages*',
  '**Realtime (`/messages`).**',
  '**Socket tickets**',
  '**Surviving the database.**',
  '**Origin check (ASVS 4.4.2).**',
  '**Every route the spec lists is built.**',
  '**Grounding.**',
  '**No provider configured**',
  '**Storage.**',
  '**Privacy.**',
  '**Encryption at rest.**',
  '**Not yet:**',
  '**The email must be verified by the provider, for linking and for creating.**',
  '**Each identity token is accepted once.**',
  '**A verified email links an existing account only when the provider owns the mailbox**',
  '**`azp` when `aud` is a list**',
  '**The owner is mailed whenever an Apple or Google identity is linked to an existing account**',
  '**The cookie**',
  '**Origin.**',
  '**The guard.**',
  '**Headers.**',
  '**Without JavaScript**',
  '**Live messages: socket tickets, not a relay.**',
  '**Two routes skip the typed client**',
  '**The magic-link landing**',
  '**Account deletion**',
  '**Images**',
  '**Request bodies are capped before they are read**',
  '**Refused submissions say why and keep what was typed.**',
  '**Per-address limits through the web server**',
  '**Infiltration.**',
  '**A report is not a way around disappearing messages.**',
];

const files = documentationFiles();
/** Their links point into README.md and docs/ too. */
const otherReadmes = ['bench/README.md', 'client-sdk/README.md'];
const texts = new Map(files.map((file) => [file, read(file)]));

function occurrences(text: string, fragment: string): number {
  return text.split(fragment).length - 1;
}

function headingLines(text: string, heading: string): number {
  return text.split('\n').filter((line) => /^#{1,6} /.test(line) && line.replace(/^#{1,6} /, '') === heading).length;
}

describe('README.md', () => {
  const readme = texts.get('README.md')!;
  const lines = readme.split('\n');

  it('is short enough to hold in your head (at most 300 lines)', () => {
    expect(lines.length).toBeLessThanOrEqual(300);
  });

  it('gives the start and test commands on its first screen, as CI runs them', () => {
    const firstScreen = lines.slice(0, 24);
    expect(firstScreen.some((line) => line.startsWith('npm ci && npm start '))).toBe(true);
    expect(firstScreen.some((line) => line.startsWith('npm ci && npm test '))).toBe(true);
  });

  it('links every file under docs/', () => {
    const linked = new Set(relativeLinks('README.md', readme).map((link) => link.target.split('#')[0]));
    const unlinked = files.filter((file) => file !== 'README.md' && !linked.has(file));
    expect(unlinked).toEqual([]);
  });
});

describe('every section and decision of the README before the split has exactly one home', () => {
  it.each(sectionHeadings)('heading %s', (heading) => {
    const homes = files.filter((file) => headingLines(texts.get(file)!, heading) > 0);
    expect(homes).toHaveLength(1);
    expect(headingLines(texts.get(homes[0]!)!, heading)).toBe(1);
  });

  it.each(decisionLeadIns)('%s', (leadIn) => {
    const homes = files.filter((file) => occurrences(texts.get(file)!, leadIn) > 0);
    expect(homes).toHaveLength(1);
    expect(occurrences(texts.get(homes[0]!)!, leadIn)).toBe(1);
  });
});

describe('relative links in README.md, docs/ and the other READMEs', () => {
  it('resolve to an existing file and heading', () => {
    const broken = [...files, ...otherReadmes]
      .flatMap((file) => relativeLinks(file, read(file)))
      .flatMap((link) => {
        const why = brokenLink(link);
        return why ? [`${link.file}:${link.line} (${link.target}): ${why}`] : [];
      });
    expect(broken).toEqual([]);
  });
});
