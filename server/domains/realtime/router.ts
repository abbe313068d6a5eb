// Realtime socket tickets: wiring only (logic in service.ts).
import { router } from '../../trpc/init.js';
import { memberProcedure } from '../../trpc/procedures.js';
import * as schemas from './schemas.js';
import * as service from './service.js';

const tags = ['messaging'];

export const realtimeRouter = router({
  createTicket: memberProcedure
    .meta({
      auth: 'member',
      writeLimit: 'realtime.tickets',
      successStatus: 201,
      // The answer is a secret: it must not be stored for an Idempotency-Key replay.
      idempotent: false,
      openapi: {
        method: 'POST',
        path: '/api/realtime/tickets',
        tags,
        summary: 'A single-use ticket for the /messages socket',
        description: `For a client that must not hold the session token where scripts run (the web front end keeps it in an HttpOnly cookie): the server side asks for a ticket with the session token and gives the page only the ticket, which opens the socket with \`{ auth: { ticket } }\` instead of \`{ auth: { token } }\`. A ticket is redeemable once, within ${schemas.TICKET_LIFETIME_SECONDS} seconds, by the socket handshake only (it is not a Bearer token). It is bound to the calling session: signing out or revoking that session invalidates its unused tickets and disconnects the sockets opened with them. Counted against the per-member write limit of its own scope.`,
      },
    })
    .input(schemas.createTicketInput)
    .output(schemas.ticketOutput)
    .mutation(({ ctx }) => service.createTicket(ctx)),
});
