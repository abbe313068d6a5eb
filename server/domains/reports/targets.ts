// What can be reported, and how each kind of target is looked up, shown and hidden. Each domain
// that owns reportable content lists its target in its manifest (posts and comments, messages,
// reviews, members, places, events); the composition root collects them into the context, so
// the reports domain never reads another domain's tables and a new kind of content becomes
// reportable by adding one object to its domain's manifest.
import type { DbOrTx, Tx } from '../../../db/client.js';
import { reportTargetTypes } from '../../../db/schema/reports.js';
import type { AppDeps, MemberServiceContext } from '../../service/context.js';

// The list lives with the reports table (db/ never imports server/); re-exported for the domains.
export { reportTargetTypes };
export type ReportTargetType = (typeof reportTargetTypes)[number];

/** Where a reported target stands now, for the admin list: still there, hidden by a moderator. */
export type ReportTargetState = 'present' | 'hidden';

/** The target as the reporter saw it, kept with the report so deleting the target keeps the evidence. */
export interface ReportSnapshot {
  /** The member who wrote or owns the target, for moderators (null: no single author, e.g. a place). */
  authorId: string | null;
  /**
   * Plain JSON: the fields a moderator needs to judge it (text, handle, title...), as they were.
   * Never an email or another private field. When the author deletes the account, every string
   * equal to their id or handle is blanked (server/domains/reports/account-cleanup.ts), so put
   * the author's handle in a field of its own (e.g. `authorHandle`), not inside a sentence.
   */
  content: Record<string, unknown>;
  /**
   * The private part, for content that is encrypted at rest in its own domain (a message's
   * text): sealed under MESSAGE_KEYS in the report and deleted by the retention rule
   * (retention.ts), never past `expiresAt` (the content's own expiry) unless a moderator keeps
   * it as evidence. Admins see it merged into `content`.
   */
  sealed?: { content: Record<string, unknown>; expiresAt: Date };
}

export interface ReportTarget {
  type: ReportTargetType;
  /**
   * The target as `viewer` may see it, or null when it does not exist or the viewer may not see
   * it (the report then answers 404, exactly like a missing target). Visibility is decided in SQL
   * by the owning domain's own read rules.
   */
  snapshot(tx: Tx, viewer: MemberServiceContext, targetId: string): Promise<ReportSnapshot | null>;
  /**
   * The moderation action "hide": the target answers 404 to everyone but admins afterwards.
   * Only content that can be hidden implements it (posts, comments); returns false when the
   * target no longer exists.
   */
  hide?(tx: Tx, targetId: string): Promise<boolean>;
  /**
   * Optional: the state of each of these targets now (an id missing from the map no longer
   * exists). The admin report list shows it; a target without it shows state `unknown`.
   * One query for the whole page, read with admin eyes (hidden targets included).
   */
  states?(db: DbOrTx, targetIds: string[]): Promise<Map<string, ReportTargetState>>;
}

/** The target of a type, or undefined while the domain that owns it is not built. */
export function reportTarget(deps: Pick<AppDeps, 'contributions'>, type: ReportTargetType): ReportTarget | undefined {
  return deps.contributions.reportTargets.get(type);
}
