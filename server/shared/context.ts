// Context types every domain uses.
import type { Session, User } from '../../db/schema/index.js';
import type { Context } from '../trpc/context.js';

/** The context of a signed-in call: memberProcedure and stronger guarantee user and session. */
export type MemberContext = Context & { user: User; session: Session };
