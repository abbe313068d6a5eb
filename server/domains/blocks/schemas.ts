// Blocks and mutes: a member appears as a MemberRef (id and handle), nothing else.
import { z } from 'zod';
import { listEnvelope, pageQueryFields } from '../../lib/pagination.js';
import { handleParam, memberRef } from '../../shared/schemas.js';

export const handleInput = () => z.object({ handle: handleParam().meta({ example: 'river_rose' }) });
export const listInput = () => z.object(pageQueryFields());

/** One entry of the caller's blocks or mutes (the two are kept alike). */
const entryOutput = (id: string, done: 'blocked' | 'muted') =>
  z
    .object({
      _id: z.string().meta({ description: `Id of the ${done} member (the same as \`user._id\`).` }),
      user: memberRef,
      createdAt: z.string().meta({ description: `When the caller ${done} them.` }),
    })
    .strict()
    .meta({ id, description: `A member the caller ${done}. Only the caller ever sees it.` });

export const blockOutput = entryOutput('MemberBlock', 'blocked');
export const blockListOutput = listEnvelope(blockOutput);
export const muteOutput = entryOutput('MemberMute', 'muted');
export const muteListOutput = listEnvelope(muteOutput);
