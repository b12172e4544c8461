import type { DeviceWithKeyResponse } from '../../../src/modules/devices/dto/device.response';
import type { CreatedOAuthClientResponse } from '../../../src/modules/oauth/dto/oauth-client.response';
import type { EndpointWithSecretResponse } from '../../../src/modules/webhook-endpoints/dto/endpoint.response';
import type { Call, JsonObject, TestApi } from '../api';
import type { Caller } from '../http';
import { created, shown } from './create';

/** POST /v1/devices: a kiosk and its key (shown once); "Lobby kiosk" unless `body` names it. */
export function newDevice(
  api: TestApi,
  church: Caller,
  body: JsonObject = {},
  call?: Call,
): Promise<DeviceWithKeyResponse & { key: string }> {
  return shown(
    created<DeviceWithKeyResponse>(api, church, '/v1/devices', { name: 'Lobby kiosk', ...body }, call),
    'key',
  );
}

/** POST /v1/webhook-endpoints (`url`, `events`, …): the endpoint and its signing secret (shown once). */
export function newWebhookEndpoint(
  api: TestApi,
  church: Caller,
  body: JsonObject,
  call?: Call,
): Promise<EndpointWithSecretResponse & { secret: string }> {
  return shown(created<EndpointWithSecretResponse>(api, church, '/v1/webhook-endpoints', body, call), 'secret');
}

/** POST /v1/oauth/clients (`name`, `redirect_uris`, `scopes`, `type`): the client, with its secret when confidential. */
export async function newOAuthClientThroughApi(
  api: TestApi,
  church: Caller,
  body: JsonObject,
  call?: Call,
): Promise<CreatedOAuthClientResponse & { client_secret?: string }> {
  const client = await created<CreatedOAuthClientResponse>(api, church, '/v1/oauth/clients', body, call);
  if (client.client_secret === null) throw new Error('POST /v1/oauth/clients: no client_secret (a replay?)');
  return { ...client, client_secret: client.client_secret };
}
