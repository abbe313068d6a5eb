// The context of a signed-in tRPC call, as routers see it; the services it is passed to take
// MemberServiceContext (server/service/context.ts), which it satisfies.
import type { Session, User } from '../../db/schema/index.js';
import type { Context } from './context.js';

/** The context of a signed-in call: memberProcedure and stronger guarantee user and session. */
export type MemberContext = Context & { user: User; session: Session };
