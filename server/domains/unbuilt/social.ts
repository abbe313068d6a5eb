// Friends, feed, posts and reports: mounted, validated, answering 501 until their milestone.
// Visibility rules the milestone must keep: a post the caller may not see is 404 (spec), and
// /api/handles/{handle}/posts shows public posts only.
import { memberProcedure, notImplemented } from '../../trpc/procedures.js';
import * as s from './social.schemas.js';

const unbuilt = true as const;

export const socialProcedures = {
  createReport: memberProcedure
    .meta({
      auth: 'member',
      writeLimit: 'reports.create',
      unbuilt,
      successStatus: 201,
      openapi: {
        method: 'POST',
        path: '/api/reports',
        tags: ['reports'],
        summary: 'Report content or a member to the admins',
      },
    })
    .input(s.createReportInput)
    .output(s.reportOutput)
    .mutation(() => notImplemented()),
};
