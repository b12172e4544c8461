// Must not compile: a misspelt field and a wrong type, caught by the SDK's generated types.
import { ChurchClient } from '@church-api/sdk';

const client = new ChurchClient({ token: 'chp_x', tenant: 'grace', baseUrl: 'http://127.0.0.1:3000' });
await client.members.create({ first_name: 'María', last_nam: 'González' });
await client.donations.create({ amount: '250.00', currency: 'MXN', fund_id: 'fnd_x' });
