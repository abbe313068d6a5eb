// A grove's page (/app/groves/:slug: join or ask to, invite codes, leave, upcoming events) and,
// for the grove's own organizers, its join requests, members, invites, bans and settings. Member
// lists come from the API only for organizers; nobody else gets them. The list and the admins'
// create form are groves-list.tsx.
import type { Context } from 'hono';
import type { RouterOutputs } from '../../client-sdk/src/index.js';
import { api, apiErrorMessage } from '../server/api.js';
import type { WebEnv } from '../server/env.js';
import { redirectWithNotice } from '../server/flash.js';
import { renderPage } from '../server/layout.js';
import { formFields, notFoundPage, rethrowUnless, UpcomingEvents, When } from './events-common.js';
import { type Page, pathParam } from './page.js';
import { urls } from '../urls.js';

export type Grove = RouterOutputs['groves']['get'];
export type JoinPolicy = Grove['joinPolicy'];

export const joinPolicyLabels: Record<JoinPolicy, string> = {
  open: 'Open: anyone can join',
  approval: 'Approval: organizers accept each request',
  invite: 'Invite only: join with a code from an organizer',
};

export function grovePath(grove: Pick<Grove, 'slug'>): string {
  return urls.grove(grove.slug);
}

export function JoinPolicySelect({ id, value }: { id: string; value: JoinPolicy }) {
  return (
    <div>
      <label for={id}>Who can join</label>
      <select id={id} name="joinPolicy">
        {(Object.keys(joinPolicyLabels) as JoinPolicy[]).map((policy) => (
          <option value={policy} selected={policy === value}>
            {joinPolicyLabels[policy]}
          </option>
        ))}
      </select>
    </div>
  );
}

type Invite = RouterOutputs['groves']['createInvite'];

interface OrganizerData {
  requests: RouterOutputs['groves']['joinRequests'];
  members: RouterOutputs['groves']['members'];
  bans: RouterOutputs['groves']['bans'];
}

async function organizerData(c: Context<WebEnv>, grove: Grove): Promise<OrganizerData | null> {
  if (grove.myRole !== 'organizer') return null;
  const client = api(c);
  try {
    const [requests, members, bans] = await Promise.all([
      client.groves.joinRequests.query({ id: grove._id, limit: 100 }),
      client.groves.members.query({ id: grove._id, limit: 100 }),
      client.groves.bans.query({ id: grove._id, limit: 100 }),
    ]);
    return { requests, members, bans };
  } catch (caught) {
    rethrowUnless(caught, 403);
    return null;
  }
}

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

function OrganizerSections({ grove, data, invite }: { grove: Grove; data: OrganizerData; invite?: Invite }) {
  return (
    <>
      <h2>Join requests</h2>
      {data.requests.items.length === 0 ? (
        <p>No requests waiting.</p>
      ) : (
        <ul class="plain">
          {data.requests.items.map((request) => (
            <li class="card">
              <p>
                @{request.handle}, asked <When iso={request.requestedAt} />
              </p>
              <form method="post" action={urls.groveRequest(grove.slug, request.handle)} class="actions">
                <button type="submit" name="decision" value="accept">
                  Accept @{request.handle}
                </button>{' '}
                <button type="submit" name="decision" value="decline" class="secondary">
                  Decline @{request.handle}
                </button>
              </form>
            </li>
          ))}
        </ul>
      )}
      <h2>Members</h2>
      <p class="hint">
        Only the grove's organizers see this list. Removing or banning someone also takes them out of every conversation
        in which a member of this grove is neither their friend nor in another grove with them.
      </p>
      <ul class="plain" aria-label="Members">
        {data.members.items.map((m) => (
          <li class="card">
            <p>
              @{m.handle} · {m.role === 'organizer' ? 'organizer' : 'member'} · joined <When iso={m.joinedAt} />
            </p>
            {m.role === 'member' ? (
              <form method="post" action={urls.groveMember(grove.slug, m.handle)} class="actions">
                <button type="submit" name="decision" value="remove" class="secondary">
                  Remove @{m.handle}
                </button>
                <button type="submit" name="decision" value="ban" class="danger">
                  Ban @{m.handle}
                </button>
              </form>
            ) : null}
          </li>
        ))}
      </ul>
      {data.bans.items.length > 0 ? (
        <>
          <h2>Banned</h2>
          <ul class="plain">
            {data.bans.items.map((ban) => (
              <li>
                <form method="post" action={urls.groveBan(grove.slug, ban.handle)}>
                  @{ban.handle}, since <When iso={ban.bannedAt} />{' '}
                  <button type="submit" class="secondary">
                    Lift the ban on @{ban.handle}
                  </button>
                </form>
              </li>
            ))}
          </ul>
        </>
      ) : null}
      <h2>Invite codes</h2>
      {invite ? (
        <div class="notice" role="status">
          <label for="new-invite">New invite code (shown only now)</label>
          <input id="new-invite" type="text" readonly value={invite.code} />
          <p>
            For {invite.maxUses} {invite.maxUses === 1 ? 'person' : 'people'}, until <When iso={invite.expiresAt} />.
          </p>
        </div>
      ) : null}
      <form method="post" action={urls.groveInvites(grove.slug)} class="stack" aria-label="Make an invite code">
        <div>
          <label for="invite-uses">How many people may use it</label>
          <input id="invite-uses" name="maxUses" type="number" min={1} max={100} value="1" />
        </div>
        <div>
          <label for="invite-hours">Valid for (hours, at most 720)</label>
          <input id="invite-hours" name="expiresInHours" type="number" min={1} max={720} value="168" />
        </div>
        <p>
          <button type="submit">Make an invite code</button>
        </p>
      </form>
      <h2>Grove settings</h2>
      <form method="post" action={urls.groveSettings(grove.slug)} class="stack" aria-label="Grove settings">
        <div>
          <label for="grove-name">Name</label>
          <input id="grove-name" name="name" type="text" required maxlength={120} value={grove.name} />
        </div>
        <div>
          <label for="grove-description">Description</label>
          <textarea id="grove-description" name="description" maxlength={5000}>
            {grove.description}
          </textarea>
        </div>
        <JoinPolicySelect id="grove-policy" value={grove.joinPolicy} />
        <p>
          <button type="submit">Save settings</button>
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

export const leaveGrove: Page = groveAction(async (c, grove) => {
  await api(c).groves.leave.mutate({ id: grove._id });
  return grove.myRole ? `You left ${grove.name}.` : 'Your request was withdrawn.';
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
  if (fields.decision === 'ban') {
    await api(c).groves.ban.mutate({ id: grove._id, handle });
    return `@${handle} was removed and banned.`;
  }
  await api(c).groves.removeMember.mutate({ id: grove._id, handle });
  return `@${handle} was removed.`;
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
