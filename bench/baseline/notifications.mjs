// The baseline of scenario 16: a plain node process that sends one notification to a group's
// members in a loop, with no job system and no bookkeeping: one query for the recipients (each live
// member of the group with their e-mail address and push tokens, as NotificationsRepository.batch
// reads them), then per batch of 100 recipients the e-mails through nodemailer (a pool of 5 SMTP
// connections to the same server, as the fan-out job's transport) and the pushes to the same
// FCM-shaped gateway, 20 at a time (the job's PUSH_CONCURRENCY), with the build's own mail and push
// texts (notificationMail, pushBody). Nothing is recorded in the database.
//
// Long-lived like the API's worker (warm after the first run): started by the harness with an IPC
// channel, it sends {ready, backendPid}, then for each {cmd: 'run', tenantId, groupId, smtpUrl,
// pushUrl, title, body, language} one send and {recipients, mails, pushes, seconds, failed};
// {cmd: 'stop'} ends it.
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = resolve(fileURLToPath(import.meta.url), '..', '..', '..');
const require = createRequire(join(repoRoot, 'package.json'));
const pg = require('pg');
const { createTransport } = require('nodemailer');
const fromBuild = (path) => require(join(repoRoot, 'bench', '.build', 'dist', path));
const { notificationMail, pushBody } = fromBuild('modules/notifications/notification.mail.js');
const { newUuid, toPublicId, ID_PREFIX } = fromBuild('common/ids/id.js');

const PER_BATCH = 100;
const SMTP_CONNECTIONS = 5;
const PUSH_CONCURRENCY = 20;
const MAIL_FROM = 'Church API <no-reply@localhost>';

const RECIPIENTS = `
  SELECT m.id AS member_id, m.first_name, m.email,
         coalesce((SELECT array_agg(p.token ORDER BY p.created_at, p.id) FROM member_push_tokens p WHERE p.tenant_id = m.tenant_id AND p.member_id = m.id), '{}') AS tokens
    FROM group_members g JOIN members m ON m.tenant_id = g.tenant_id AND m.id = g.member_id AND m.deleted_at IS NULL
   WHERE g.tenant_id = $1 AND g.group_id = $2
   ORDER BY m.id`;

const client = new pg.Client({
  connectionString: process.env.DATABASE_URL,
  application_name: 'church-bench-notifications',
});
await client.connect();

async function inTenant(tenantId, fn) {
  await client.query('BEGIN');
  try {
    await client.query(`SELECT set_config('role', $1, true), set_config('app.tenant_id', $2, true)`, [
      'church_app',
      tenantId,
    ]);
    const result = await fn();
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

let transport;
let transportUrl;

async function inBatches(items, size, fn) {
  const results = [];
  for (let i = 0; i < items.length; i += size) results.push(...(await Promise.all(items.slice(i, i + size).map(fn))));
  return results;
}

async function runOnce({ tenantId, groupId, smtpUrl, pushUrl, title, body, language }) {
  const started = process.hrtime.bigint();
  if (transportUrl !== smtpUrl) {
    transport?.close();
    transport = createTransport({
      url: smtpUrl,
      pool: true,
      maxConnections: SMTP_CONNECTIONS,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 30_000,
    });
    transportUrl = smtpUrl;
  }
  const { rows, church } = await inTenant(tenantId, async () => ({
    rows: (await client.query(RECIPIENTS, [tenantId, groupId])).rows,
    church: (await client.query('SELECT name FROM tenants WHERE id = $1', [tenantId])).rows[0].name,
  }));
  const publicId = toPublicId(ID_PREFIX.notification, newUuid());
  let mails = 0;
  let pushes = 0;
  let failed = 0;
  for (let i = 0; i < rows.length; i += PER_BATCH) {
    const batch = rows.slice(i, i + PER_BATCH);
    const withMail = batch.filter((r) => r.email);
    const withPush = batch.filter((r) => r.tokens.length > 0);
    await Promise.all([
      Promise.all(
        withMail.map(async (r) => {
          const mail = notificationMail({ title, body, firstName: r.first_name, church }, language);
          try {
            await transport.sendMail({ from: MAIL_FROM, to: r.email, subject: mail.subject, text: mail.text });
            mails++;
          } catch {
            failed++;
          }
        }),
      ),
      inBatches(withPush, PUSH_CONCURRENCY, async (r) => {
        for (const token of r.tokens) {
          const res = await fetch(pushUrl, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({
              message: { token, notification: { title, body: pushBody(body) }, data: { notification_id: publicId } },
            }),
            redirect: 'manual',
            signal: AbortSignal.timeout(5_000),
          });
          await res.arrayBuffer().catch(() => undefined);
          if (res.ok) pushes++;
          else failed++;
        }
      }),
    ]);
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return { recipients: rows.length, mails, pushes, failed, seconds };
}

const [{ pid: backendPid }] = (await client.query('SELECT pg_backend_pid() AS pid')).rows;
process.on('message', async (message) => {
  if (message.cmd === 'stop') {
    transport?.close();
    await client.end();
    process.exit(0);
  }
  if (message.cmd === 'run') {
    try {
      process.send(await runOnce(message));
    } catch (error) {
      process.send({ error: String(error.stack ?? error) });
    }
  }
});
process.send({ ready: true, backendPid });
