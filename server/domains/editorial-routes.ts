// The admin routes of an editorial collection (../editorial.ts: guides, media items), which
// differ only in their path, schemas, services and words: list (drafts included), create (as a
// draft), get, change (publish included) and delete, in that order, tagged `admin`.
import type { z } from 'zod';
import { okOutput } from '../shared/schemas.js';
import type { MemberContext } from '../trpc/member-context.js';
import { adminProcedure } from '../trpc/procedures.js';

const tags = ['admin'];

/** One route: its schemas, the service it calls, and its words in the OpenAPI document. */
interface Route<I extends z.ZodType, O extends z.ZodType> {
  input: I;
  output: O;
  run: (ctx: MemberContext, input: z.output<I>) => Promise<z.input<O>>;
  summary: string;
  description?: string;
}

// Inside, tRPC's inferred types of a generic schema do not reduce to zod's; each `run` is checked
// against its schemas where the routes are declared, and the procedures keep their schemas' types.
const words = (route: { summary: string; description?: string }) =>
  route.description === undefined
    ? { summary: route.summary }
    : { summary: route.summary, description: route.description };

/** `adminList`, `adminCreate`, `adminGet`, `adminUpdate` and `adminDelete` under `path` and `path/{id}`. */
export function editorialAdminRoutes<
  ListIn extends z.ZodType,
  ListOut extends z.ZodType,
  CreateIn extends z.ZodType,
  ItemOut extends z.ZodType,
  IdIn extends z.ZodType,
  UpdateIn extends z.ZodType,
>(
  path: `/${string}`,
  routes: {
    list: Route<ListIn, ListOut>;
    create: Route<CreateIn, ItemOut>;
    get: Route<IdIn, ItemOut>;
    update: Route<UpdateIn, ItemOut>;
    delete: Omit<Route<IdIn, typeof okOutput>, 'output'>;
  },
) {
  const { list, create, get, update } = routes;
  const item = `${path}/{id}` as const;
  return {
    adminList: adminProcedure
      .meta({ auth: 'admin', openapi: { method: 'GET', path, tags, ...words(list) } })
      .input(list.input)
      .output(list.output)
      .query(({ ctx, input }) => list.run(ctx, input as never) as never),

    adminCreate: adminProcedure
      .meta({
        auth: 'admin',
        successStatus: 201,
        errors: ['conflict'],
        openapi: { method: 'POST', path, tags, ...words(create) },
      })
      .input(create.input)
      .output(create.output)
      .mutation(({ ctx, input }) => create.run(ctx, input as never) as never),

    adminGet: adminProcedure
      .meta({ auth: 'admin', openapi: { method: 'GET', path: item, tags, ...words(get) } })
      .input(get.input)
      .output(get.output)
      .query(({ ctx, input }) => get.run(ctx, input as never) as never),

    adminUpdate: adminProcedure
      .meta({ auth: 'admin', errors: ['conflict'], openapi: { method: 'PATCH', path: item, tags, ...words(update) } })
      .input(update.input)
      .output(update.output)
      .mutation(({ ctx, input }) => update.run(ctx, input as never) as never),

    adminDelete: adminProcedure
      .meta({ auth: 'admin', openapi: { method: 'DELETE', path: item, tags, ...words(routes.delete) } })
      .input(routes.delete.input)
      .output(okOutput)
      .mutation(({ ctx, input }) => routes.delete.run(ctx, input as never) as never),
  };
}
