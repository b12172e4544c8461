import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Every operation of the OpenAPI document (docs/openapi.json, the document the API serves) is reached by
 * a method of the SDK: a route added to the API without one fails here. The methods name their route as
 * `this.t.send('<method>', '<path template>', …)` or `this.paginate('<path template>', …)` (a GET).
 */

/** Routes that are not for an API client holding a token, and why. */
const NOT_IN_THE_SDK: Record<string, string> = {
  'get /v1/oauth/authorize': 'the OAuth sign-in page, for a browser',
  'post /v1/oauth/authorize/sign-in': 'the OAuth sign-in form, for a browser',
  'post /v1/oauth/authorize/decision': 'the OAuth consent form, for a browser',
  'post /v1/oauth/token': 'the OAuth token endpoint (form-encoded, client credentials): for an OAuth library',
  'post /v1/oauth/revoke': 'RFC 7009 revocation by an OAuth client: for an OAuth library',
  'get /.well-known/oauth-authorization-server': 'RFC 8414 metadata: for an OAuth library',
  'post /v1/webhooks/payments/{tenant}': "the payment processor's inbound events, signed by the processor",
  'get /healthz': 'liveness, for the operator',
  'get /readyz': 'readiness, for the operator and the load balancer',
};

const SDK_SRC = join(__dirname, '..', 'src');
const DOCUMENT = join(__dirname, '..', '..', 'docs', 'openapi.json');

function documentOperations(): string[] {
  const document = JSON.parse(readFileSync(DOCUMENT, 'utf8')) as { paths: Record<string, Record<string, unknown>> };
  const methods = ['get', 'post', 'put', 'patch', 'delete'];
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.keys(item)
      .filter((method) => methods.includes(method))
      .map((method) => `${method} ${path}`),
  );
}

function sdkOperations(): Set<string> {
  const found = new Set<string>();
  for (const file of ['resources.ts', 'changes.ts']) {
    const source = readFileSync(join(SDK_SRC, file), 'utf8');
    for (const m of source.matchAll(/\.send\(\s*'(get|post|put|patch|delete)',\s*'([^']+)'/g))
      found.add(`${m[1]} ${m[2]}`);
    for (const m of source.matchAll(/\.paginate\(\s*'([^']+)'/g)) found.add(`get ${m[1]}`);
  }
  return found;
}

describe('the SDK covers the OpenAPI document', () => {
  it('has a method for every operation a token holder calls', () => {
    const sdk = sdkOperations();
    const missing = documentOperations().filter((op) => !sdk.has(op) && !(op in NOT_IN_THE_SDK));
    expect(missing).toEqual([]);
  });

  it('names no route the document lacks, and leaves out only routes that exist', () => {
    const inDocument = new Set(documentOperations());
    expect([...sdkOperations()].filter((op) => !inDocument.has(op))).toEqual([]);
    expect(Object.keys(NOT_IN_THE_SDK).filter((op) => !inDocument.has(op))).toEqual([]);
  });
});
