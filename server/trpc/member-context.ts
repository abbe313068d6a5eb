// The context of a signed-in tRPC call, the type every domain service takes.
import type { Session, User } from '../../db/schema/index.js';
import type { Context } from './context.js';

/** The context of a signed-in call: memberProcedure and stronger guarantee user and session. */
export type MemberContext = Context & { user: User; session: Session };
