// Organizations: hosting bodies. Their admins are NEVER part of any response (spec privacy
// rule 5: no `adminUserIds`, no admin handles); the strict output schema is the guard.
import { z } from 'zod';
import { HTTP_URL_PATTERN } from '../../shared/patterns.js';
import { listEnvelope, pageQueryFields } from '../../lib/pagination.js';
import { hostSlugInput } from '../../shared/schemas.js';

export const organizationOutput = z
  .object({
    _id: z.string(),
    slug: z.string(),
    name: z.string(),
    description: z.string(),
    website: z.string().nullable(),
    createdAt: z.string(),
  })
  .strict()
  .meta({ id: 'Organization' });

export const listOrganizationsInput = () =>
  z.object({
    q: z.string().trim().min(1).max(100).optional().meta({ description: 'Case-insensitive match on the name.' }),
    ...pageQueryFields(),
  });
export const organizationListOutput = listEnvelope(organizationOutput);
export const organizationSlugInput = z.object({ slug: z.string().min(1).max(80) });

const websiteInput = z
  .url({ protocol: /^https?$/ })
  .max(500)
  .meta({ description: 'Absolute http(s) URL.', pattern: HTTP_URL_PATTERN });

export const createOrganizationInput = z
  .object({
    slug: hostSlugInput.optional().meta({ description: 'Made from the name when absent.' }),
    name: z.string().trim().min(1).max(120),
    description: z.string().max(5000).default(''),
    website: websiteInput.nullable().optional(),
  })
  .strict()
  .meta({
    examples: [
      { name: 'Animal Save Bristol', description: 'Vigils and outreach.', website: 'https://example.org/bristol' },
    ],
  });

export const updateOrganizationInput = z
  .object({
    id: z.uuid(),
    slug: hostSlugInput.optional(),
    name: z.string().trim().min(1).max(120).optional(),
    description: z.string().max(5000).optional(),
    website: websiteInput.nullable().optional(),
  })
  .strict()
  .meta({ examples: [{ id: '01936f5e-8c2a-7b3d-9e4f-a1b2c3d4e5f6', website: null }] });

export type OrganizationOutput = z.infer<typeof organizationOutput>;
