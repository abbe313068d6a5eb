// A grove's page (/app/groves/:slug: join or ask to, invite codes, leave, upcoming events) and
// every grove POST, among them the organizers' (their sections of the page are
// groves-organizers.tsx). Leaving, removing and banning ask first (confirm.tsx); a ban takes a
// reason. The list and the admins' create form are groves-list.tsx.
import type { Context } from 'hono';
import { api, apiErrorMessage } from '../server/api.js';
import type { WebEnv } from '../server/env.js';
import { redirectWithNotice } from '../server/flash.js';
import { renderPage } from '../server/layout.js';
import { formFields, notFoundPage, rethrowUnless, UpcomingEvents } from './events-common.js';
import { confirmFirst, type ReasonField } from './confirm.js';
import { type Grove, grovePath, type JoinPolicy, joinPolicyLabels } from './groves-common.js';
import { type Invite, OrganizerSections, organizerData } from './groves-organizers.js';
import { type Page, pathParam } from './page.js';
import { urls } from '../urls.js';

/** A ban takes a reason: kept with the ban, shown to the grove's organizers only. */
const BAN_REASON: ReasonField = {
  label: 'Reason for the ban',
  hint: "(the grove's organizers see it; the member is not told)",
  required: true,
  maxLength: 500,
};

function MembershipControls({ grove }: { grove: Grove }) {
  if (grove.myRole) {
    return (
      <form method="post" action={urls.groveLeave(grove.slug)}>
        <p>
          You are {grove.myRole === 'organizer' ? 'an organizer' : 'a member'} of this grove.{' '}
          <button type="submit" class="secondary">
            {grove.myRole === 'organizer' ? 'Leave the grove (you stop being an organizer)' : 'Leave the grove'}
          </button>
        </p>
      </form>
    );
  }
  if (grove.myJoinRequestPending) {
    return (
      <form method="post" action={urls.groveLeave(grove.slug)}>
        <p>
          Your request to join is waiting for an organizer.{' '}
          <button type="submit" class="secondary">
            Withdraw the request
          </button>
        </p>
      </form>
    );
  }
  return (
    <>
      {grove.joinPolicy === 'invite' ? null : (
        <form method="post" action={urls.groveJoin(grove.slug)}>
          <button type="submit">{grove.joinPolicy === 'open' ? 'Join the grove' : 'Ask to join'}</button>
        </form>
      )}
      <form method="post" action={urls.groveJoin(grove.slug)} class="stack" aria-label="Join with an invite code">
        <div>
          <label for="invite-code">
            Invite code <span class="hint">(from an organizer; lets you in at once)</span>
          </label>
          <input id="invite-code" name="code" type="text" required maxlength={16} autocomplete="off" />
        </div>
        <p>
          <button type="submit" class="secondary">
            Join with the code
          </button>
        </p>
      </form>
    </>
  );
}

async function loadGrove(c: Context<WebEnv>): Promise<Grove | null> {
  try {
    return await api(c).groves.get.query({ grove: pathParam(c, 'slug') });
  } catch (caught) {
    rethrowUnless(caught, 404, 400);
    return null;
  }
}

async function grovePage(c: Context<WebEnv>, grove: Grove, invite?: Invite): Promise<Response> {
  const [data, events] = await Promise.all([
    organizerData(c, grove),
    api(c).events.list.query({ groveId: grove._id, from: new Date().toISOString(), limit: 10 }),
  ]);
  if (invite) c.header('Cache-Control', 'private, no-store');
  return renderPage(
    c,
    { title: grove.name, scripts: ['/assets/local-times.js'] },
    <>
      <dl class="details">
        <dt>Region</dt>
        <dd>{grove.region.name}</dd>
        <dt>Members</dt>
        <dd>
          {grove.memberCount} ({grove.organizerCount} {grove.organizerCount === 1 ? 'organizer' : 'organizers'})
        </dd>
        <dt>Who can join</dt>
        <dd>{joinPolicyLabels[grove.joinPolicy]}</dd>
      </dl>
      {grove.description ? <p class="pre-line">{grove.description}</p> : null}
      <h2>Membership</h2>
      <MembershipControls grove={grove} />
      <h2>Upcoming events</h2>
      {grove.myRole === 'organizer' ? (
        <p>
          <a class="button" href={`${urls.eventNew()}?grove=${encodeURIComponent(grove._id)}`}>
            Create an event for this grove
          </a>
        </p>
      ) : null}
      <UpcomingEvents events={events.items} />
      <p>
        <a href={`${urls.events()}?grove=${encodeURIComponent(grove._id)}`}>All events of this grove</a>
      </p>
      {data ? <OrganizerSections grove={grove} data={data} invite={invite} /> : null}
    </>,
  );
}

/** A grove POST: load the grove (404 page when unseen), run the call, come back with a notice. */
function groveAction(
  run: (c: Context<WebEnv>, grove: Grove, fields: Record<string, string>) => Promise<string | Response>,
) {
  return async (c: Context<WebEnv>) => {
    const grove = await loadGrove(c);
    if (!grove) return notFoundPage(c);
    const fields = await formFields(c);
    try {
      const outcome = await run(c, grove, fields);
      return outcome instanceof Response ? outcome : redirectWithNotice(c, grovePath(grove), outcome);
    } catch (caught) {
      rethrowUnless(caught, 400, 403, 404, 409, 429);
      return redirectWithNotice(c, grovePath(grove), apiErrorMessage(caught));
    }
  };
}

export const showGrove: Page = async (c) => {
  const grove = await loadGrove(c);
  return grove ? grovePage(c, grove) : notFoundPage(c);
};

export const joinGrove: Page = groveAction(async (c, grove, fields) => {
  const code = fields.code?.trim();
  const result = await api(c).groves.join.mutate({ id: grove._id, ...(code ? { code } : {}) });
  return result.status === 'member'
    ? `You joined ${grove.name}.`
    : 'Your request was sent; an organizer of the grove will accept or decline it.';
});

export const leaveGrove: Page = groveAction(async (c, grove, fields) => {
  const leave = async () => {
    await api(c).groves.leave.mutate({ id: grove._id });
    return grove.myRole ? `You left ${grove.name}.` : 'Your request was withdrawn.';
  };
  // Withdrawing a request loses nothing; leaving may need an invite or an approval to undo.
  if (!grove.myRole) return leave();
  return confirmFirst(
    c,
    {
      question: `Leave ${grove.name}?`,
      details: (
        <p>
          {grove.joinPolicy === 'open'
            ? 'You can join again at any time.'
            : grove.joinPolicy === 'approval'
              ? 'To come back you will have to ask again, and an organizer has to accept.'
              : 'To come back you will need a new invite code from an organizer.'}
          {grove.myRole === 'organizer'
            ? ' You stop being an organizer; only a site admin can make you one again.'
            : ''}
        </p>
      ),
      action: urls.groveLeave(grove.slug),
      fields,
      confirmLabel: 'Leave the grove',
      cancelHref: grovePath(grove),
    },
    async () => redirectWithNotice(c, grovePath(grove), await leave()),
  );
});

export const decideJoinRequest: Page = groveAction(async (c, grove, fields) => {
  const handle = pathParam(c, 'handle');
  if (fields.decision === 'accept') {
    await api(c).groves.acceptJoinRequest.mutate({ id: grove._id, handle });
    return `@${handle} is a member now.`;
  }
  await api(c).groves.declineJoinRequest.mutate({ id: grove._id, handle });
  return `Declined @${handle}'s request.`;
});

export const removeGroveMember: Page = groveAction(async (c, grove, fields) => {
  const handle = pathParam(c, 'handle');
  const request = {
    action: urls.groveMember(grove.slug, handle),
    fields,
    cancelHref: grovePath(grove),
  };
  if (fields.decision === 'ban') {
    return confirmFirst(
      c,
      {
        ...request,
        question: `Ban @${handle} from ${grove.name}?`,
        details: (
          <p>
            @{handle} leaves the grove, loses their RSVPs to its coming events and cannot join again, not even with an
            invite code, until an organizer lifts the ban. They are not told why.
          </p>
        ),
        confirmLabel: `Ban @${handle}`,
        reason: BAN_REASON,
      },
      async (reason) => {
        await api(c).groves.ban.mutate({ id: grove._id, handle, reason });
        return redirectWithNotice(c, grovePath(grove), `@${handle} was removed and banned.`);
      },
    );
  }
  return confirmFirst(
    c,
    {
      ...request,
      question: `Remove @${handle} from ${grove.name}?`,
      details: <p>@{handle} stops being a member. They may join again under the grove's rules.</p>,
      confirmLabel: `Remove @${handle}`,
    },
    async () => {
      await api(c).groves.removeMember.mutate({ id: grove._id, handle });
      return redirectWithNotice(c, grovePath(grove), `@${handle} was removed.`);
    },
  );
});

export const liftGroveBan: Page = groveAction(async (c, grove) => {
  const handle = pathParam(c, 'handle');
  await api(c).groves.unban.mutate({ id: grove._id, handle });
  return `The ban on @${handle} was lifted.`;
});

// The code is shown once, in this answer (not through a redirect or cookie).
export const createGroveInvite: Page = groveAction(async (c, grove, fields) => {
  const invite = await api(c).groves.createInvite.mutate({
    id: grove._id,
    maxUses: Number(fields.maxUses) || 1,
    expiresInHours: Number(fields.expiresInHours) || 168,
  });
  return grovePage(c, grove, invite);
});

export const updateGroveSettings: Page = groveAction(async (c, grove, fields) => {
  const updated = await api(c).groves.update.mutate({
    grove: grove._id,
    name: fields.name ?? grove.name,
    description: fields.description ?? grove.description,
    joinPolicy: (fields.joinPolicy || grove.joinPolicy) as JoinPolicy,
  });
  return redirectWithNotice(c, grovePath(updated), 'Settings saved.');
});
