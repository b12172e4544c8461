import { ID_PREFIX, toPublicId } from '../ids/id';
import type { Actor } from './tenant-context';

/** The actor of a change as the history shows it (CONTRACT §16). */
export interface ChangeActor {
  type: 'token' | 'oauth_app' | 'cli' | 'console' | 'system' | 'processor';
  id: string | null;
  name: string | null;
}

export function changeActor(actor: Actor): ChangeActor {
  switch (actor.kind) {
    case 'token':
      return {
        type: actor.tokenType === 'oauth' ? 'oauth_app' : 'token',
        id: actor.tokenId ? toPublicId(ID_PREFIX.token, actor.tokenId) : null,
        name: actor.tokenName ?? null,
      };
    case 'cli':
      return { type: 'cli', id: null, name: actor.name ?? null };
    case 'staff':
      return {
        type: 'console',
        id: actor.userId ? toPublicId(ID_PREFIX.user, actor.userId) : null,
        name: actor.name ?? null,
      };
    case 'processor':
      return { type: 'processor', id: null, name: actor.name ?? null };
    default:
      return { type: 'system', id: null, name: null };
  }
}

/** A change row written without an actor (platform work on the pool's role). */
export const SYSTEM_ACTOR: ChangeActor = { type: 'system', id: null, name: null };
