import { defaultScopes, grantableScopes } from './oauth-scopes';

describe('OAuth scopes', () => {
  const client = ['read:members', 'read:events', 'admin:*'];

  it('a request without scope asks for the client ceiling but never admin:*', () => {
    expect(defaultScopes(client)).toEqual(['read:members', 'read:events']);
    expect(grantableScopes([], client, 'org_admin')).toEqual(['read:members', 'read:events']);
  });

  it('admin:* is granted when asked for by name and held by the client and the role', () => {
    expect(grantableScopes(['admin:*'], client, 'org_admin')).toEqual(['admin:*']);
    expect(grantableScopes(['admin:*'], client, 'staff')).toEqual([]);
  });
});
