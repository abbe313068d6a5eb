// The post-text tokenizer (web/pages/post-text.tsx): addresses, @handles and #tags become links,
// and nothing an author writes ever becomes markup, a script link or a disguised host.
import { describe, expect, it } from 'vitest';
import { LinkedText, type TextToken, tokenize } from '../pages/post-text.js';

function html(text: string): string {
  return String(LinkedText({ text }));
}

function links(text: string): TextToken[] {
  return tokenize(text).filter((token) => token.kind !== 'text');
}

describe('tokenize', () => {
  it('keeps the text whole: the pieces join back to the input', () => {
    const inputs = [
      'See https://example.org/a?b=c#d, then @alice_1 and #Vegan!',
      '(https://en.wikipedia.org/wiki/Foo_(band)) and [https://x.example/y].',
      'Mail bob@example.org, not @bo, #1, a#b, &#39;',
      '',
      'https://',
    ];
    for (const input of inputs)
      expect(
        tokenize(input)
          .map((t) => t.text)
          .join(''),
      ).toBe(input);
  });

  it('links http(s) addresses without the punctuation after them', () => {
    expect(links('Read https://example.org/path. Or http://Example.org/x?y=1, ok')).toEqual([
      { kind: 'url', text: 'https://example.org/path', href: 'https://example.org/path' },
      { kind: 'url', text: 'http://Example.org/x?y=1', href: 'http://example.org/x?y=1' },
    ]);
    expect(links('(see https://en.wikipedia.org/wiki/Foo_(band))')[0]).toMatchObject({
      text: 'https://en.wikipedia.org/wiki/Foo_(band)',
    });
    expect(links('“https://example.org/q”…')[0]).toMatchObject({ text: 'https://example.org/q' });
    expect(links('HTTPS://EXAMPLE.ORG')[0]).toMatchObject({ kind: 'url', href: 'https://example.org/' });
  });

  it('never links other schemes, broken addresses or addresses with a user name', () => {
    for (const text of [
      'javascript:alert(1)',
      'JaVaScRiPt:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'vbscript:msgbox',
      'https://',
      'https://[::1',
      'https://bank.example@evil.example/login',
      'xhttps://example.org',
      'ftp://example.org',
    ])
      expect(
        links(text).filter((t) => t.kind === 'url'),
        text,
      ).toEqual([]);
  });

  it('ends an address at quotes, angle brackets and invisible or direction marks', () => {
    expect(links('https://x.example/"><script>alert(1)</script>')[0]).toMatchObject({
      text: 'https://x.example/',
    });
    expect(links('https://x.example/a\u202Egnp.exe')[0]).toMatchObject({ text: 'https://x.example/a' });
    expect(links('https://x.example/a\u200Bb')[0]).toMatchObject({ text: 'https://x.example/a' });
  });

  it('shows the real host of a lookalike or non-Latin address', () => {
    const cyrillic = links('https://\u0430pple.com/login')[0];
    expect(cyrillic).toMatchObject({ kind: 'url', asciiHost: 'xn--pple-43d.com' });
    expect((cyrillic as { href: string }).href).toBe('https://xn--pple-43d.com/login');
    expect(links('https://bücher.example/')[0]).toMatchObject({ asciiHost: 'xn--bcher-kva.example' });
    expect(links('https://xn--bcher-kva.example/')[0]).not.toHaveProperty('asciiHost');
    expect(links('https://example.org/')[0]).not.toHaveProperty('asciiHost');
  });

  it('links @handles but not email addresses, fediverse addresses or short names', () => {
    expect(links('Thanks @alice_1, @Bob and (@carol)!')).toEqual([
      { kind: 'mention', text: '@alice_1', handle: 'alice_1' },
      { kind: 'mention', text: '@Bob', handle: 'Bob' },
      { kind: 'mention', text: '@carol', handle: 'carol' },
    ]);
    expect(links('bob@example.org @al @dave@social.example @évelyne @x'.repeat(1))).toEqual([]);
    expect(links(`@${'a'.repeat(31)}`)).toEqual([]);
  });

  it('links #tags of any script, lower-cased, but not numbers, entities or words with # inside', () => {
    expect(links('#Vegan #Tierschütz #веган #1 a#b &#39; ##x')).toEqual([
      { kind: 'tag', text: '#Vegan', tag: 'vegan' },
      { kind: 'tag', text: '#Tierschütz', tag: 'tierschütz' },
      { kind: 'tag', text: '#веган', tag: 'веган' },
    ]);
    // The fragment of an address is part of the address.
    expect(links('https://example.org/#top')).toEqual([
      { kind: 'url', text: 'https://example.org/#top', href: 'https://example.org/#top' },
    ]);
  });
});

describe('LinkedText', () => {
  it('renders links as escaped markup: rel on external links, handles and tags to our pages', () => {
    const out = html('Hi @alice, see https://example.org/?a=1&b="2" #Vegan');
    expect(out).toContain('<a href="/app/handles/alice">@alice</a>');
    expect(out).toContain('<a href="https://example.org/?a=1&amp;b=" rel="nofollow noopener ugc" class="external">');
    expect(out).toContain('<a href="/app/feed?scope=public&amp;tag=vegan">#Vegan</a>');
    expect(out).not.toContain('target=');
  });

  it('never lets the author write markup', () => {
    const evil =
      '"><script>alert(1)</script><img src=x onerror=alert(1)> javascript:alert(1) <a href="javascript:x">y</a>';
    const out = html(evil);
    expect(out).not.toContain('<script');
    expect(out).not.toContain('<img');
    expect(out).not.toContain('href="javascript');
    expect(out).toContain('&lt;script&gt;');
  });

  it('names the real host after a lookalike address', () => {
    expect(html('https://\u0430pple.com')).toContain('(xn--pple-43d.com)');
  });
});
