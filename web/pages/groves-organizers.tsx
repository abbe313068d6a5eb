// The organizers' part of a grove's page: join requests, members (with remove and ban, which
// ask first: groves.tsx), bans with their reasons, invite codes and the grove's settings. Only
// the grove's organizers get these lists from the API; nobody else sees them.
import type { Context } from 'hono';
import type { RouterOutputs } from '../../client-sdk/src/index.js';
import { api } from '../server/api.js';
import type { WebEnv } from '../server/env.js';
import { rethrowUnless, When } from './events-common.js';
import { type Grove, JoinPolicySelect } from './groves-common.js';
import { urls } from '../urls.js';

export type Invite = RouterOutputs['groves']['createInvite'];

export interface OrganizerData {
  requests: RouterOutputs['groves']['joinRequests'];
  members: RouterOutputs['groves']['members'];
  bans: RouterOutputs['groves']['bans'];
}

export async function organizerData(c: Context<WebEnv>, grove: Grove): Promise<OrganizerData | null> {
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

export function OrganizerSections({ grove, data, invite }: { grove: Grove; data: OrganizerData; invite?: Invite }) {
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
                  @{ban.handle}, since <When iso={ban.bannedAt} />
                  {ban.reason ? <span class="pre-line">. Reason: {ban.reason}</span> : null}{' '}
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
