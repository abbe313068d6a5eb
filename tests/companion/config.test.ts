// Companion configuration: a provider needs a model; its URL and key are never echoed in errors.
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.js';
import { searchQuery } from '../../server/domains/companion/retrieval.js';

describe('companion configuration', () => {
  it('defaults to the embedded answer, with a rate limit and a timeout', () => {
    const config = loadConfig({ NODE_ENV: 'test' });
    expect(config.COMPANION_BASE_URL).toBeUndefined();
    expect(config.COMPANION_RATE_LIMIT_PER_MEMBER).toBe(20);
    expect(config.COMPANION_RATE_LIMIT_WINDOW_SECONDS).toBe(600);
    expect(config.COMPANION_TIMEOUT_MS).toBe(60_000);
  });

  it('refuses a provider without a model, and never echoes the URL or key', () => {
    const url = 'http://user:secret-pass@llm.internal:11434/v1';
    let message = '';
    try {
      loadConfig({ NODE_ENV: 'test', COMPANION_BASE_URL: url, COMPANION_API_KEY: 'x' });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('COMPANION_MODEL');
    expect(() => loadConfig({ NODE_ENV: 'test', COMPANION_BASE_URL: 'not a url', COMPANION_MODEL: 'm' })).toThrow(
      /COMPANION_BASE_URL: .*value not shown/,
    );
    expect(message).not.toContain('secret-pass');
  });
});

describe('retrieval query', () => {
  it('keeps meaningful words as OR-ed prefixes, dropping short and common ones', () => {
    expect(searchQuery('What can I cook for a Potluck of twenty?')).toBe('cook:* | potluck:* | twenty:*');
    expect(searchQuery('a an of ?!')).toBeNull();
    // Only letters and digits reach to_tsquery.
    expect(searchQuery("vegan' & | ! (stew):*")).toBe('vegan:* | stew:*');
  });
});
