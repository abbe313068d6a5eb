// Account extras: the action-aggregate opt-in (notification preferences and push tokens are
// built in server/domains/notifications/).
// Mounted, validated, answering 501.
import { z } from 'zod';
import { memberProcedure, notImplemented } from '../../trpc/procedures.js';
import { jsonBoolean } from './common.js';

const unbuilt = true as const;
const tags = ['me'];

export const aggregateOptInInput = z
  .object({ optIn: jsonBoolean() })
  .strict()
  .meta({ examples: [{ optIn: true }] });
export const aggregateOptInOutput = z.object({ optIn: z.boolean() }).meta({ id: 'ActionAggregateOptIn' });

export const accountExtrasProcedures = {
  setActionAggregateOptIn: memberProcedure
    .meta({
      auth: 'member',
      unbuilt,
      openapi: {
        method: 'PUT',
        path: '/api/me/action-aggregate-opt-in',
        tags,
        summary: 'Opt in or out of contributing action totals to aggregates',
        description: 'Off by default. Only totals are contributed, never entries.',
      },
    })
    .input(aggregateOptInInput)
    .output(aggregateOptInOutput)
    .mutation(() => notImplemented()),
};
