// Where a reply comes from: the configured OpenAI-compatible provider, streamed through the
// official `openai` package, or (no COMPANION_BASE_URL) the embedded retrieval answer built from
// the library items themselves. Both yield text pieces and stop when `signal` aborts.
import type OpenAI from 'openai';
import type { Config } from '../../config.js';
import type { CompanionRole } from '../../../db/schema/index.js';
import type { LibraryItem } from './retrieval.js';

export const EMBEDDED_LABEL = 'No language model is configured on this server; here is what the library has on this:';
export const EMBEDDED_NOTHING =
  'No language model is configured on this server, and the library has no published guide or media item matching your message. Try other words, or browse the guides (GET /api/guides) and the media library (GET /api/media).';

export interface ReplyRequest {
  message: string;
  history: { role: CompanionRole; content: string }[];
  items: LibraryItem[];
  signal: AbortSignal;
}

/** A provider that could not answer (HTTP error, broken stream, timeout); its message is safe to show. */
export class ProviderError extends Error {
  override name = 'ProviderError';
}

const cite = (item: LibraryItem) => `${item.type}:${item.slug}`;

export function systemPrompt(items: LibraryItem[]): string {
  const library = items.length
    ? items
        .map((item) => `[${cite(item)}] ${item.type === 'guide' ? 'Guide' : 'Media'}: "${item.title}"\n${item.context}`)
        .join('\n\n')
    : '(No item of the library matches this message.)';
  return [
    "You are the companion of a community service for animal-advocacy activists. Answer briefly and kindly, grounded in the service's own published guides and media listed below.",
    'When you use an item, cite it by its reference in square brackets, e.g. [guide:potluck-basics]. Cite only the references listed below; never invent guides, films or links.',
    'If the library has nothing relevant, say so plainly and answer from general knowledge only with care. Never ask for personal details such as names, employers or addresses.',
    '',
    'Library items:',
    library,
  ].join('\n');
}

/** The embedded answer, whole; streamed in chunks by embeddedReply. */
export function embeddedAnswer(items: LibraryItem[]): string {
  if (items.length === 0) return EMBEDDED_NOTHING;
  const lines = items.map((item) => {
    const kind = item.type === 'guide' ? 'Guide' : 'Media';
    const path = item.type === 'guide' ? `/api/guides/${item.slug}` : `/api/media/${item.slug}`;
    const excerpt = item.excerpt.trim().replace(/\s+/g, ' ');
    return `- ${kind} "${item.title}" [${cite(item)}] (${path})${excerpt ? `: ${excerpt}` : ''}`;
  });
  return `${EMBEDDED_LABEL}\n\n${lines.join('\n')}`;
}

async function* embeddedReply(request: ReplyRequest): AsyncGenerator<string> {
  const text = embeddedAnswer(request.items);
  // Word-sized chunks, yielding to the event loop between them, like a model's stream.
  const pieces = text.match(/\S+\s*|\s+/g) ?? [text];
  for (let i = 0; i < pieces.length; i += 8) {
    if (request.signal.aborted) return;
    yield pieces.slice(i, i + 8).join('');
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** The `openai` package, loaded with the first provider reply, not at start (~120 ms, ~9 MB). */
let openaiModule: Promise<typeof import('openai')> | undefined;
async function loadOpenAI() {
  openaiModule ??= import('openai');
  return (await openaiModule).default;
}

const clients = new WeakMap<Config, OpenAI>();

function clientFor(OpenAIClient: typeof OpenAI, config: Config): OpenAI {
  let client = clients.get(config);
  if (!client) {
    client = new OpenAIClient({
      baseURL: config.COMPANION_BASE_URL,
      // Local servers (Ollama, llama.cpp) take any key; the package insists on one.
      apiKey: config.COMPANION_API_KEY ?? 'unused',
      // The whole reply is bounded by COMPANION_TIMEOUT_MS through the signal; no silent retries.
      maxRetries: 0,
      timeout: config.COMPANION_TIMEOUT_MS,
    });
    clients.set(config, client);
  }
  return client;
}

async function* providerReply(config: Config, request: ReplyRequest): AsyncGenerator<string> {
  const OpenAIClient = await loadOpenAI();
  let stream: AsyncIterable<OpenAI.Chat.Completions.ChatCompletionChunk>;
  try {
    stream = await clientFor(OpenAIClient, config).chat.completions.create(
      {
        model: config.COMPANION_MODEL!,
        stream: true,
        messages: [
          { role: 'system', content: systemPrompt(request.items) },
          ...request.history.map((m) => ({ role: m.role, content: m.content })),
          { role: 'user', content: request.message },
        ],
      },
      { signal: request.signal },
    );
  } catch (error) {
    throw describeProviderFailure(OpenAIClient, error, request.signal);
  }
  try {
    for await (const chunk of stream) {
      const text = chunk.choices[0]?.delta?.content;
      if (text) yield text;
    }
  } catch (error) {
    throw describeProviderFailure(OpenAIClient, error, request.signal);
  }
}

/** Never the provider's own error text: it may quote the prompt. */
function describeProviderFailure(OpenAIClient: typeof OpenAI, error: unknown, signal: AbortSignal): ProviderError {
  if (signal.aborted)
    return new ProviderError('The language model took too long to answer, or the request was cancelled.');
  if (error instanceof OpenAIClient.APIError && error.status)
    return new ProviderError(`The language model answered with HTTP ${error.status}; try again later.`);
  return new ProviderError('The language model could not be reached or broke off its answer; try again later.');
}

/** True when a provider is configured; otherwise the embedded retrieval answer is used. */
export function providerConfigured(config: Config): boolean {
  return Boolean(config.COMPANION_BASE_URL);
}

export function generateReply(config: Config, request: ReplyRequest): AsyncGenerator<string> {
  return providerConfigured(config) ? providerReply(config, request) : embeddedReply(request);
}
