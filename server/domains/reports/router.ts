// Report routes: wiring only. `reports.*` holds the report itself and its admin side;
// GET /api/me/reports is `me.listReports` by the naming rule (server/composition.ts).
import { router } from '../../trpc/init.js';
import { adminProcedure, memberProcedure } from '../../trpc/procedures.js';
import * as admin from './admin.js';
import * as schemas from './schemas.js';
import * as service from './service.js';

export const reportsRouter = router({
  create: memberProcedure
    .meta({
      auth: 'member',
      writeLimit: 'reports.create',
      successStatus: 201,
      errors: ['not_found', 'conflict'],
      openapi: {
        method: 'POST',
        path: '/api/reports',
        tags: ['reports'],
        summary: 'Report content or a member to the admins',
        description:
          "Reportable: a post, comment, message, review, event or place the caller can see, or any member. A target the caller may not see, one that does not exist, and a type whose feature is not built yet all answer the same 404 `not_found`. The admins get a snapshot of the target as it is now, so deleting it later keeps the evidence. One open report per reporter and target: another answers 409 `conflict` (once the first is decided, the target can be reported again). The reporter's identity is shown to admins only. Rate limited per member (429 `rate_limited`).",
      },
    })
    .input(schemas.createReportInput)
    .output(schemas.reportOutput)
    .mutation(({ ctx, input }) => service.createReport(ctx, input)),

  adminList: adminProcedure
    .meta({
      auth: 'admin',
      openapi: {
        method: 'GET',
        path: '/api/admin/reports',
        tags: ['admin'],
        summary: 'Reports, oldest first',
        description:
          "The moderation queue, ordered by `_id` (oldest first); filters `status`, `targetType`, `reason`. Each report carries its reporter, the snapshot of the target taken when it was reported, the target's state now (`present`, `hidden`, `deleted`, `unknown`), its current author, and every decision made on it. The text of a reported message is sealed at rest and shown only until its retention ends (`target.privateText`).",
      },
    })
    .input(schemas.adminListReportsInput())
    .output(schemas.adminReportListOutput)
    .query(({ ctx, input }) => admin.adminListReports(ctx, input)),

  resolve: adminProcedure
    .meta({
      auth: 'admin',
      errors: ['conflict'],
      openapi: {
        method: 'PUT',
        path: '/api/admin/reports/{id}',
        tags: ['admin'],
        summary: 'Resolve or dismiss a report',
        description:
          'Records a decision: `status` `resolved` or `dismissed`, an internal `note` (admins only), a `publicNote` (shown to the reporter) and an optional `action` `hide` (posts and comments, with `resolved`: the target then answers 404 to everyone but admins; 400 `validation_failed` for another type or with `dismissed`; 409 `conflict` when the target no longer exists). A decided report may be decided again (a second opinion, a corrected note): the report shows the latest decision and the audit trail (`decisions`) keeps every one with who and when. A later decision does not undo a hide. Message reports: the text of the message is deleted 30 days after a decision (or at the expiry of the message if sooner); `keepEvidence: true` keeps it 365 days from this decision instead, even past that expiry (400 `validation_failed` for a report without private text, 409 `conflict` when it was already deleted); a later decision without it brings back the ordinary rule. 404 for an unknown id.',
      },
    })
    .input(schemas.resolveReportInput)
    .output(schemas.adminReportOutput)
    .mutation(({ ctx, input }) => admin.resolveReport(ctx, input)),
});

/** Merged into the `me` namespace. */
export const myReportsRouter = router({
  listReports: memberProcedure
    .meta({
      auth: 'member',
      openapi: {
        method: 'GET',
        path: '/api/me/reports',
        tags: ['me', 'reports'],
        summary: "The caller's reports and their outcome",
        description:
          "Newest first. Each report shows its status and the public part of the latest decision (`publicNote`, `action`, `decidedAt`); never who decided, nor the admins' internal note. Reports are deleted with the reporter's account.",
      },
    })
    .input(schemas.listMyReportsInput())
    .output(schemas.myReportListOutput)
    .query(({ ctx, input }) => service.listMyReports(ctx, input)),
});
