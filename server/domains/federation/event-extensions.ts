// Mobilizon's extensions on an Event (its time zone, category, the venue's PostalAddress, and how
// to take part), which Fedify's vocabulary has no properties for. Fedify builds every document
// from its own fields, so the terms are added to the compact JSON-LD each time an Event, or a
// Create/Update carrying one, is serialised: the object dispatcher, the outbox page, and the
// delivery (before Fedify signs it, so the Object Integrity Proof and the Linked Data Signature
// cover them). The `@context` gains Mobilizon's own definitions of these terms
// (lib/federation/activity_pub/utils.ex in framasoft/mobilizon). docs/federation.md lists them.
import { Create, Event, Update } from '@fedify/vocab';
import type { eventTypes } from '../../../db/schema/events.js';

/** What Mobilizon reads beyond ActivityStreams, for one event: only public columns feed it. */
export interface EventExtensions {
  timezone: string | null;
  category: string;
  /** The event page: RSVPs happen here, so Mobilizon sends people there to take part. */
  participationUrl: string;
  address: { streetAddress?: string; addressLocality?: string };
}

/**
 * Our event types in Mobilizon's category enum (lib/mobilizon/events/categories.ex); Mobilizon
 * files anything it does not know under MEETING, its default, so `other` goes there too.
 */
export const mobilizonCategory: Record<(typeof eventTypes)[number], string> = {
  protest: 'MOVEMENTS_POLITICS',
  vigil: 'CAUSES',
  outreach: 'CAUSES',
  potluck: 'FOOD_DRINK',
  sanctuary_day: 'CAUSES',
  screening: 'FILM_MEDIA',
  meeting: 'MEETING',
  other: 'MEETING',
};

/** Mobilizon's definitions of the terms we send (the subset of its context that we use). */
export const MOBILIZON_TERMS = {
  sc: 'http://schema.org#',
  mz: 'https://joinmobilizon.org/ns#',
  pt: 'https://joinpeertube.org/ns#',
  category: 'sc:category',
  PostalAddress: 'sc:PostalAddress',
  address: { '@id': 'sc:address', '@type': 'sc:PostalAddress' },
  streetAddress: 'sc:streetAddress',
  addressLocality: 'sc:addressLocality',
  timezone: { '@id': 'mz:timezone', '@type': 'sc:Text' },
  isOnline: { '@id': 'mz:isOnline', '@type': 'sc:Boolean' },
  joinMode: { '@id': 'mz:joinMode', '@type': 'mz:joinModeType' },
  externalParticipationUrl: { '@id': 'mz:externalParticipationUrl', '@type': 'sc:URL' },
  anonymousParticipationEnabled: { '@id': 'mz:anonymousParticipationEnabled', '@type': 'sc:Boolean' },
  commentsEnabled: { '@id': 'pt:commentsEnabled', '@type': 'sc:Boolean' },
  repliesModerationOption: { '@id': 'mz:repliesModerationOption', '@type': 'mz:repliesModerationOptionType' },
} as const;

type Json = Record<string, unknown>;
const isJson = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

function withTerms(document: Json): void {
  const context = document['@context'];
  if (context === undefined) return;
  const list = Array.isArray(context) ? context : [context];
  // Once per document, also where a nested Event already carried them.
  if (!list.some((entry) => isJson(entry) && entry.mz === MOBILIZON_TERMS.mz))
    document['@context'] = [...list, MOBILIZON_TERMS];
}

/** Adds the extension properties to an Event's compact JSON-LD (in place). */
function extendEvent(event: Json, ext: EventExtensions): void {
  if (ext.timezone) event.timezone = ext.timezone;
  event.category = ext.category;
  event.isOnline = false;
  // Nobody joins through Mobilizon: no anonymous RSVPs, no comments, the page takes part.
  event.joinMode = 'external';
  event.externalParticipationUrl = ext.participationUrl;
  event.anonymousParticipationEnabled = false;
  event.commentsEnabled = false;
  event.repliesModerationOption = 'closed';
  const address = Object.fromEntries(Object.entries(ext.address).filter(([, value]) => value));
  if (isJson(event.location) && Object.keys(address).length > 0)
    event.location = { ...event.location, address: { type: 'PostalAddress', ...address } };
  withTerms(event);
}

type ToJsonLdOptions = Parameters<Event['toJsonLd']>[0];

/** Expanded JSON-LD has no terms to add; every compact form (and Fedify's default) gets them. */
async function serialise(json: unknown, options: ToJsonLdOptions, apply: (document: Json) => void) {
  if (options?.format === 'expand' || !isJson(json)) return json;
  const copy = structuredClone(json);
  apply(copy);
  return copy;
}

/** An Event that serialises with Mobilizon's extensions. Fedify's clone keeps the class. */
export class ExtendedEvent extends Event {
  extensions: EventExtensions | undefined;

  static of(values: ConstructorParameters<typeof Event>[0], extensions: EventExtensions): ExtendedEvent {
    const event = new ExtendedEvent(values);
    event.extensions = extensions;
    return event;
  }

  override clone(...args: Parameters<Event['clone']>): Event {
    const copy = super.clone(...args) as ExtendedEvent;
    copy.extensions = this.extensions;
    return copy;
  }

  override async toJsonLd(options?: ToJsonLdOptions): Promise<unknown> {
    const ext = this.extensions;
    return serialise(await super.toJsonLd(options), options, (document) => {
      if (ext) extendEvent(document, ext);
    });
  }
}

function extendActivity(document: Json, ext: EventExtensions | undefined): void {
  if (!ext || !isJson(document.object)) return;
  extendEvent(document.object, ext);
  withTerms(document);
}

/** Create of an extended Event: the embedded object keeps its extensions in the activity. */
export class ExtendedCreate extends Create {
  extensions: EventExtensions | undefined;

  static of(values: ConstructorParameters<typeof Create>[0], object: ExtendedEvent): ExtendedCreate {
    const activity = new ExtendedCreate({ ...values, object });
    activity.extensions = object.extensions;
    return activity;
  }

  override clone(...args: Parameters<Create['clone']>): Create {
    const copy = super.clone(...args) as ExtendedCreate;
    copy.extensions = this.extensions;
    return copy;
  }

  override async toJsonLd(options?: ToJsonLdOptions): Promise<unknown> {
    return serialise(await super.toJsonLd(options), options, (document) => extendActivity(document, this.extensions));
  }
}

/** Update of an extended Event, as ExtendedCreate. */
export class ExtendedUpdate extends Update {
  extensions: EventExtensions | undefined;

  static of(values: ConstructorParameters<typeof Update>[0], object: ExtendedEvent): ExtendedUpdate {
    const activity = new ExtendedUpdate({ ...values, object });
    activity.extensions = object.extensions;
    return activity;
  }

  override clone(...args: Parameters<Update['clone']>): Update {
    const copy = super.clone(...args) as ExtendedUpdate;
    copy.extensions = this.extensions;
    return copy;
  }

  override async toJsonLd(options?: ToJsonLdOptions): Promise<unknown> {
    return serialise(await super.toJsonLd(options), options, (document) => extendActivity(document, this.extensions));
  }
}
