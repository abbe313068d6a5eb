// The admins' instance blocklist (blocklist.ts) as the API shows it.
import { z } from 'zod';
import { listEnvelope, pageQueryFields } from '../../lib/pagination.js';

const hostField = () =>
  z.string().min(1).max(300).meta({
    description:
      'A host name (`mastodon.example`); an internationalised name, a pasted address (`https://mastodon.example/@someone`) or `*.mastodon.example` is reduced to its lower-case ASCII host.',
    example: 'spam.example',
  });

export const listBlockedHostsInput = () => z.object(pageQueryFields());

export const blockHostInput = z
  .object({
    host: hostField(),
    reason: z
      .string()
      .max(500)
      .optional()
      .meta({ description: "The admins' own note on why (never shown to the instance).", example: 'Harassment.' }),
  })
  .strict()
  .meta({ examples: [{ host: 'spam.example', reason: 'Harassment campaigns against our groves.' }] });

export const blockedHostParamInput = z.object({ host: hostField() });

export const blockedHostOutput = z
  .object({
    _id: z.string(),
    host: z.string().meta({ description: 'The blocked host; its subdomains are blocked with it.' }),
    reason: z.string().nullable(),
    createdAt: z.string().meta({ description: 'When it was blocked.' }),
  })
  .strict()
  .meta({ id: 'BlockedInstance', description: 'An instance the site admins cut off (docs/federation.md).' });

export const blockedHostListOutput = listEnvelope(blockedHostOutput);
