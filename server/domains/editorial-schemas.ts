// The change input of an editorial record (./editorial.ts: guides, media items): its own fields,
// all optional, at least one, and `published` to publish or take back to draft.
import { z } from 'zod';
import { uuidParam } from '../shared/schemas.js';

const EXAMPLE_ID = '01936f5e-8c2a-7b3d-9e4f-a1b2c3d4e5f6';

/** `{ id, ...fields (optional), published? }`, strict; `noun` names the record in `published`'s description. */
export function editorialUpdateInput<F extends z.ZodRawShape>(
  fields: F,
  noun: string,
  example: Record<string, unknown>,
) {
  return z
    .object({
      id: uuidParam(),
      ...z.object(fields).partial().shape,
      published: z
        .boolean()
        .optional()
        .meta({ description: `true publishes the ${noun}, false takes it back to draft.` }),
    })
    .strict()
    .refine((v) => Object.keys(v).some((k) => k !== 'id'), { message: 'Send at least one field to change.' })
    .meta({
      description:
        'Only the fields to change, at least one. A new title keeps the slug; send `slug` to change it (409 when taken).',
      minProperties: 1,
      examples: [{ id: EXAMPLE_ID, ...example, published: true }],
    });
}
