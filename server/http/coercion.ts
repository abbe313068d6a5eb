// trpc-to-openapi coerces the number/boolean/date fields of EVERY input object in place on each
// REST request (`_def.coerce = true`), JSON bodies included, and since zod schemas are shared
// objects the change leaks into tRPC calls too: "5" would pass as 5 and "no" as true. Query
// strings need that coercion; JSON bodies must not get it. At startup we pin the coerce flag of
// every field reachable from a body (POST/PUT/PATCH) input to its declared value.
import { forEachOpenApiProcedure, type OpenApiRouter } from 'trpc-to-openapi';

type ZodLike = {
  _zod?: { def?: { type?: string } };
  _def?: Record<string, unknown>;
  def?: Record<string, unknown>;
  shape?: Record<string, ZodLike>;
  unwrap?: () => ZodLike;
};

const wrappers = new Set(['optional', 'nullable', 'default', 'prefault']);
const coercible = new Set(['number', 'boolean', 'bigint', 'date']);

function unwrap(schema: ZodLike): ZodLike {
  let current = schema;
  while (current?._zod?.def?.type && wrappers.has(current._zod.def.type) && current.unwrap) current = current.unwrap();
  return current;
}

function pin(schema: ZodLike, seen: Set<ZodLike>): void {
  const inner = unwrap(schema);
  if (!inner || seen.has(inner)) return;
  seen.add(inner);
  const type = inner._zod?.def?.type;
  if (type && coercible.has(type) && inner._def) {
    // Already pinned by an earlier app in this process (tests build several): leave it.
    if (Object.getOwnPropertyDescriptor(inner._def, 'coerce')?.configurable === false) return;
    const declared = Boolean(inner._def.coerce);
    Object.defineProperty(inner._def, 'coerce', {
      get: () => declared,
      set: () => {},
      configurable: false,
      enumerable: true,
    });
  } else if (type === 'object' && inner.shape) {
    for (const field of Object.values(inner.shape)) pin(field, seen);
  }
}

export function pinBodyCoercion(router: OpenApiRouter): void {
  const seen = new Set<ZodLike>();
  forEachOpenApiProcedure(router._def.procedures, ({ procedure, meta }) => {
    if (meta.openapi.method === 'GET' || meta.openapi.method === 'DELETE') return;
    const inputs = (procedure as unknown as { _def: { inputs: ZodLike[] } })._def.inputs;
    for (const input of inputs) pin(input, seen);
  });
}
