// The change input of an editorial record (./editorial.ts: guides, media items): its own fields,
// all optional, at least one, and `published` to publish or take back to draft.
import { z } from 'zod';
import { changeInput } from '../shared/schemas.js';

/** `{ id, ...fields (optional), published? }`, strict; `noun` names the record in `published`'s description. */
export function editorialUpdateInput<F extends z.ZodRawShape>(
  fields: F,
  noun: string,
  example: Record<string, unknown>,
) {
  return changeInput(
    {
      ...z.object(fields).partial().shape,
      published: z
        .boolean()
        .optional()
        .meta({ description: `true publishes the ${noun}, false takes it back to draft.` }),
    },
    { ...example, published: true },
    'Only the fields to change, at least one. A new title keeps the slug; send `slug` to change it (409 when taken).',
  );
}
