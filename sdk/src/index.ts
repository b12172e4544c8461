export { ChurchClient } from './client.js';
export { ChurchApiError, ChurchNetworkError } from './errors.js';
export { ChangeFeed, Changes, type ChangeObjectType, type FollowOptions } from './changes.js';
export {
  ListIterator,
  type CallOptions,
  type ChurchClientOptions,
  type RetryOptions,
  type SendInit,
} from './transport.js';
export type * from './types.js';
export type * from './resources.js';
