// Socket tickets: the one credential a browser that never sees the session token uses to open
// the `/messages` socket (docs/realtime.md).
import { z } from 'zod';

/** Seconds a ticket can be redeemed: long enough for a page to load and connect, no longer. */
export const TICKET_LIFETIME_SECONDS = 60;

export const createTicketInput = z
  .object({})
  .strict()
  .meta({ examples: [{}] });

export const ticketOutput = z
  .object({
    ticket: z.string().meta({
      description:
        'Opaque, single use: `io(api + "/messages", { auth: { ticket } })`. Never put it in a URL (a handshake with a credential in the query is refused).',
    }),
    expiresAt: z.string().meta({ description: `When it can no longer be redeemed (${TICKET_LIFETIME_SECONDS} s).` }),
  })
  .strict()
  .meta({ id: 'RealtimeTicket' });
export type TicketOutput = z.infer<typeof ticketOutput>;
