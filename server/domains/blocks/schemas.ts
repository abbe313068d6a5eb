// Blocks and mutes: a member appears as a MemberRef (id and handle), nothing else.
import { z } from 'zod';
import { listEnvelope, pageQueryFields } from '../../lib/pagination.js';
import { handleParam, memberRef } from '../../shared/schemas.js';

export const handleInput = () => z.object({ handle: handleParam().meta({ example: 'river_rose' }) });
export const listInput = () => z.object(pageQueryFields());

export const blockOutput = z
  .object({
    _id: z.string().meta({ description: 'Id of the blocked member (the same as `user._id`).' }),
    user: memberRef,
    createdAt: z.string().meta({ description: 'When the caller blocked them.' }),
  })
  .strict()
  .meta({ id: 'MemberBlock', description: 'A member the caller blocked. Only the caller ever sees it.' });
export const blockListOutput = listEnvelope(blockOutput);

export const muteOutput = z
  .object({
    _id: z.string().meta({ description: 'Id of the muted member (the same as `user._id`).' }),
    user: memberRef,
    createdAt: z.string().meta({ description: 'When the caller muted them.' }),
  })
  .strict()
  .meta({ id: 'MemberMute', description: 'A member the caller muted. Only the caller ever sees it.' });
export const muteListOutput = listEnvelope(muteOutput);
