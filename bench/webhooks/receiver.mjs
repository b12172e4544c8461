// The loopback webhook receiver of scenario 5, in its own process. Answers 200, except the first
// attempt of one delivery in five (chosen by a hash of the event id), which gets a 500 so that the
// worker retries it. Records every request: event id, wall-clock time (ms), status answered.
// IPC: {cmd:'report'} → {hits: [[eventId, [[t, status], …]], …]}; {cmd:'reset'}.
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';

let hits = new Map();
const now = () => performance.timeOrigin + performance.now();
const failsFirst = (id) => createHash('sha1').update(id).digest()[0] % 5 === 0;

const server = createServer((req, res) => {
  const id = req.headers['service-webhook-id'];
  req.resume();
  req.on('end', () => {
    const t = now();
    const seen = hits.get(id);
    const status = !seen && failsFirst(String(id)) ? 500 : 200;
    if (seen) seen.push([t, status]);
    else hits.set(id, [[t, status]]);
    res.writeHead(status, { 'Content-Type': 'text/plain', 'Content-Length': 2 });
    res.end(status === 200 ? 'ok' : 'no');
  });
});
server.keepAliveTimeout = 5_000;
server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));

process.on('message', (msg) => {
  if (msg.cmd === 'report') process.send({ hits: [...hits.entries()] });
  if (msg.cmd === 'reset') {
    hits = new Map();
    process.send({ reset: true });
  }
});
process.on('disconnect', () => process.exit(0));
