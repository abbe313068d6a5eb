// Every PostgreSQL advisory lock id the service takes, in one table so two uses can never share
// an id by accident (a shared id would make one job silently skip while the other runs). Ids are
// stable: a process of the previous release may still be running during a rolling deploy.
export const ADVISORY_LOCKS = {
  /** Held for the whole migration run, so N processes starting together migrate once (db/client.ts). */
  migrations: 7_310_001,
  /** Job: sweep expired sessions, magic-link tokens and rate-limit windows (server/jobs/sweeps.ts). */
  expiredCredentialsSweep: 7_310_101,
  /** Job: delete RSVPs 30 days after their event (server/domains/events/rsvp-sweep.ts). */
  oldRsvpsSweep: 7_310_104,
  /** Job: delete Idempotency-Key records older than 24 h (server/jobs/sweeps.ts). */
  expiredIdempotencyKeysSweep: 7_310_105,
  /** Job: delete video uploads abandoned a day past their authorization (server/domains/uploads/sweep.ts). */
  abandonedVideoUploadsSweep: 7_310_701,
  /**
   * Not a job: the tus upload locker (server/domains/uploads/tus-locker.ts) holds the session
   * two-key lock (this id, hashtext(upload id)) while a request writes an upload, across processes.
   */
  tusUpload: 7_310_702,
  /** Job: delete image uploads never attached, a day after their presign (server/domains/uploads/image-sweep.ts). */
  unattachedImageUploadsSweep: 7_310_711,
  /** Job: delete WebAuthn challenges past their 5 minutes (server/domains/passkeys/sweep.ts). */
  expiredWebauthnChallengesSweep: 7_310_801,
  /** Job: delete friend invite codes past their expiry (server/domains/friends/invite-sweep.ts). */
  expiredFriendInvitesSweep: 7_310_201,
  /** Job: event reminders ~24 h ahead, once per member and event, into push_outbox (server/domains/events/event-reminders.ts). */
  eventReminders: 7_310_202,
  /**
   * Job: every Web Push, from push_outbox (server/push/outbox.ts). Taken on PGlite only: on
   * PostgreSQL the job claims rows with SKIP LOCKED and runs in every process at once. Retired,
   * never to be reused: 7_310_203, 7_310_204, 7_310_402 (the per-kind push jobs it replaced).
   */
  pushOutbox: 7_310_205,
  /** Job: give events from before the time_zone column their zone (server/domains/events/time-zone-backfill.ts). */
  eventTimeZoneBackfill: 7_310_206,
  /** Job: delete guest RSVPs 30 days after their event, and unconfirmed ones past their link (server/domains/guest-rsvps/sweep.ts). */
  guestRsvpsSweep: 7_310_207,
  /** Job: delete messages past their expiresAt (server/domains/conversations/messages-sweep.ts). */
  expiredMessagesSweep: 7_310_401,
  /** Job: delete report snapshots' private text when its retention ends (server/domains/reports/texts-sweep.ts). */
  reportTextsSweep: 7_310_501,
  /**
   * Job: build queued data exports (server/domains/data-export/jobs.ts). Taken on PGlite only: on
   * PostgreSQL the job claims its export with SKIP LOCKED and runs in every process at once.
   */
  dataExportBuilder: 7_310_901,
  /** Job: delete data export archives past their 24 hours (server/domains/data-export/jobs.ts). */
  dataExportSweep: 7_310_902,
  /**
   * Job: ActivityPub deliveries and event changes from federation_queue
   * (server/domains/federation/delivery-job.ts). Taken on PGlite only: on PostgreSQL the job
   * claims its rows with SKIP LOCKED and runs in every process at once.
   */
  federationQueue: 7_311_001,
  /**
   * Not a job: the friends-feed triggers (migrations/0019_posts_feed_triggers.sql) take the
   * two-key transaction lock (this id, hashtext(author id)) so a post and a new friendship of its
   * author never miss each other's inbox rows.
   */
  feedFanOut: 7_310_301,
} as const;

export type AdvisoryLockName = keyof typeof ADVISORY_LOCKS;
