import type { DeviceWithKeyResponse } from '../../../src/modules/devices/dto/device.response';
import type { CreatedOAuthClientResponse } from '../../../src/platform/oauth/dto/oauth-client.response';
import type { EndpointWithSecretResponse } from '../../../src/platform/webhooks/dto/endpoint.response';
import type { Call, JsonObject, TestApi } from '../api';
import type { Caller } from '../http';
import { created } from './create';

/** POST /v1/devices: a kiosk and its key (shown once); "Lobby kiosk" unless `body` names it. */
export function newDevice(
  api: TestApi,
  church: Caller,
  body: JsonObject = {},
  call?: Call,
): Promise<DeviceWithKeyResponse> {
  return created(api, church, '/v1/devices', { name: 'Lobby kiosk', ...body }, call);
}

/** POST /v1/webhook-endpoints (`url`, `events`, …): the endpoint and its signing secret (shown once). */
export function newWebhookEndpoint(
  api: TestApi,
  church: Caller,
  body: JsonObject,
  call?: Call,
): Promise<EndpointWithSecretResponse> {
  return created(api, church, '/v1/webhook-endpoints', body, call);
}

/** POST /v1/oauth/clients (`name`, `redirect_uris`, `scopes`, `type`): the client, with its secret when confidential. */
export function newOAuthClientThroughApi(
  api: TestApi,
  church: Caller,
  body: JsonObject,
  call?: Call,
): Promise<CreatedOAuthClientResponse> {
  return created(api, church, '/v1/oauth/clients', body, call);
}
