// Checks an outgoing ActivityPub document against the shapes Mastodon and Mobilizon read
// (fixtures/consumer-shapes.ts). Each failure names the consumer, the field, what it needs and the
// source file that reads it, so a failing test says where to look.
import {
  type DocumentKind,
  MOBILIZON_TERMS_USED,
  type Need,
  PUBLIC_AUDIENCE,
  type Rule,
  SHAPES,
  type Shape,
} from './fixtures/consumer-shapes.js';

type Json = Record<string, unknown>;
const isJson = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const idOf = (value: unknown): unknown => (isJson(value) ? value.id : value);

/** Every value at a dotted path; `name[]` steps into each element of an array (or the one value). */
function valuesAt(document: unknown, path: string): unknown[] {
  let current: unknown[] = [document];
  for (const part of path.split('.')) {
    const each = part.endsWith('[]');
    const key = each ? part.slice(0, -2) : part;
    current = current.flatMap((value) => {
      if (!isJson(value)) return [undefined];
      const next = value[key];
      return each ? (next === undefined ? [] : Array.isArray(next) ? next : [next]) : [next];
    });
  }
  return current;
}

const isUrl = (value: unknown) => {
  if (typeof value !== 'string') return false;
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
};

const isZone = (value: unknown) => {
  if (typeof value !== 'string' || /^[+-]?\d/.test(value)) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: value });
    return true;
  } catch {
    return false;
  }
};

function holds(need: Need, value: unknown, document: Json, expectedActor: string): boolean {
  const actor = String(idOf(document.actor ?? document.attributedTo) ?? expectedActor);
  if (typeof need === 'object') return typeof value === 'string' && need.oneOf.includes(value);
  switch (need) {
    case 'present':
      return value !== undefined && value !== null;
    case 'string':
      return typeof value === 'string' && value.trim().length > 0;
    case 'url':
      return isUrl(idOf(value));
    case 'iso-datetime':
      return typeof value === 'string' && /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d)$/.test(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'iana-zone':
      return isZone(value);
    case 'public-audience':
      return (Array.isArray(value) ? value : [value]).some((v) => (PUBLIC_AUDIENCE as readonly unknown[]).includes(v));
    case 'same-host-as-actor':
      return isUrl(value) && new URL(String(value)).host === new URL(actor).host;
    case 'embedded-object':
      return isJson(value);
    case 'equals-actor':
      return idOf(value) === expectedActor;
  }
}

const describeNeed = (need: Need) => (typeof need === 'object' ? `one of ${need.oneOf.join(', ')}` : need);

function checkRule(shape: Shape, rule: Rule, document: Json, expectedActor: string): string[] {
  const values = valuesAt(document, rule.field);
  const failures: string[] = [];
  for (const value of values) {
    if (rule.optional && value === undefined) continue;
    if (!holds(rule.need, value, document, expectedActor))
      failures.push(
        `${shape.consumer}: ${rule.field} must be ${describeNeed(rule.need)} (got ${JSON.stringify(value)}): ` +
          `${rule.why}. Read in ${shape.source.repo}/${shape.source.path}` +
          (shape.source.commit ? ` at ${shape.source.commit}` : ''),
      );
  }
  return failures;
}

/** The Mobilizon terms an Event uses must be defined by a @context in scope (its own or the activity's). */
function checkTerms(document: Json, event: Json): string[] {
  const contexts = [document['@context'], event['@context']]
    .flatMap((context) => (Array.isArray(context) ? context : [context]))
    .filter(isJson);
  const address = isJson(event.location) && isJson(event.location.address) ? event.location.address : {};
  const used = new Set([...Object.keys(event), ...Object.keys(address)]);
  if (isJson(address) && address.type === 'PostalAddress') used.add('PostalAddress');
  return MOBILIZON_TERMS_USED.filter((term) => used.has(term) && !contexts.some((c) => term in c)).map(
    (term) =>
      `Mobilizon: the term ${term} is not defined in the @context (framasoft/mobilizon ` +
      'lib/federation/activity_pub/utils.ex make_json_ld_header defines it)',
  );
}

/** All failures of `document` (a `kind` document sent as `expectedActor`) against every consumer's shape. */
export function shapeFailures(kind: DocumentKind, document: unknown, expectedActor: string): string[] {
  if (!isJson(document)) return [`${kind}: not a JSON object`];
  const failures = SHAPES.filter((shape) => shape.document === kind).flatMap((shape) =>
    shape.rules.flatMap((rule) => checkRule(shape, rule, document, expectedActor)),
  );
  const event = kind === 'event' ? document : isJson(document.object) ? document.object : null;
  if (event && (kind === 'event' || kind === 'create' || kind === 'update'))
    failures.push(...checkTerms(document, event));
  return failures;
}
