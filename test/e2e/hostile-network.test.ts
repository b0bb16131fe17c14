// Hostile cases against the network (issue 9): a case reaches nothing but its own documents — no
// loopback service of the host, no other address, not even by WebRTC. The oracle runs as users
// run it (bin/browser-oracle): in a network namespace of its own, with loopback alone. A second
// oracle runs without the namespace (BROWSER_ORACLE_NETWORK=host), where the refusing proxy alone
// must keep loopback services out of reach. The non-loopback target is a host this test makes
// itself: a network namespace of its own, joined to this one by a veth pair.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { createServer, type Server } from 'node:net';
import { ENGINE_NAMES } from '../../src/protocol/schema.js';
import { ONE_PAGE, type Line, OracleProcess } from '../support/oracle-process.js';

/** A TCP listener that counts connections. */
async function listener(host: string): Promise<{ server: Server; port: number; connections: () => number }> {
  let count = 0;
  const server = createServer((socket) => {
    count++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return { server, port: (server.address() as { port: number }).port, connections: () => count };
}

/** Every way a page might name a loopback port, by markup and by script. */
function loopbackAttempts(port: number): { html: string; script: string } {
  const targets = ['127.0.0.1', '127.0.0.2', 'localhost', 'foo.localhost', '2130706433', '[::ffff:127.0.0.1]', '[::1]'].map(
    (host) => `http://${host}:${port}/x`,
  );
  return {
    html: `<!doctype html>${targets.map((t) => `<img src="${t}"><link rel=stylesheet href="${t}">`).join('')}`,
    // The trace ends once every fetch has settled (so each was answered, by the proxy or by the
    // namespace's empty loopback) and every WebSocket has closed or failed: a fixed wait would count on
    // a loaded machine having sent them all by then.
    script:
      `const tried = ${JSON.stringify(targets)}.flatMap((t) => [fetch(t, {mode:'no-cors'}).catch(()=>{}),` +
      ` new Promise((settle) => { try { const s = new WebSocket(t.replace('http','ws')); s.onclose = settle; s.onerror = settle; } catch (e) { settle(); } })]);` +
      ' Promise.all(tried).then(()=>trace.done())',
  };
}

async function expectUnreached(oracle: OracleProcess, port: number, connections: () => number, tag: string): Promise<void> {
  const { html, script } = loopbackAttempts(port);
  // One after the other, so that each case's refusals have their own lines.
  for (const request of [
    { id: `${tag}-markup`, html },
    { id: `${tag}-script`, op: 'trace', html: html.replace('<!doctype html>', ''), script },
  ]) {
    const answer = await oracle.request(request);
    assert.equal(answer.errors, undefined, JSON.stringify(answer.errors));
    for (const [engine, trace] of Object.entries<Line>(answer.traces ?? {}))
      assert.equal(trace.timed_out, false, `${tag} ${engine}: every attempt settled`);
  }
  assert.equal(connections(), 0, `${tag}: a case reached the test's loopback listener`);
}

describe('loopback services of the host are out of reach', () => {
  let target: Awaited<ReturnType<typeof listener>>;
  before(async () => {
    target = await listener('127.0.0.1');
  });
  after(() => target.server.close());

  test('in its own network namespace (as users run it)', async () => {
    const oracle = new OracleProcess(ONE_PAGE);
    try {
      const ping = await oracle.ready();
      assert.equal(ping.network, 'namespace');
      await expectUnreached(oracle, target.port, target.connections, 'namespace');
    } finally {
      await oracle.shutdown();
    }
  });

  test('without a namespace, the proxy alone refuses them, and says that a page asked', async () => {
    const oracle = new OracleProcess(ONE_PAGE, { BROWSER_ORACLE_NETWORK: 'host' });
    try {
      const ping = await oracle.ready();
      assert.equal(ping.network, 'proxy');
      await expectUnreached(oracle, target.port, target.connections, 'proxy');
      // Logged at warn with the page that asked. Which case it was is named only when the engine's
      // Referer carries the path: engines cap a cross-site Referer at the origin whatever the page's policy.
      assert.match(
        oracle.stderr,
        new RegExp(
          `refused an engine's request: GET http://127\\.0\\.0\\.1:${target.port}/x \\((case "proxy-(markup|script)"|a case's page|a script-free case on the fast path)\\)`,
        ),
      );
    } finally {
      await oracle.shutdown();
    }
  });
});

describe('no packet reaches another address, WebRTC included', () => {
  // A namespace of this test's own, 10.213.<n>.2 behind a veth pair, with a UDP and a TCP listener.
  const name = `bo-test-${process.pid}`;
  const subnet = `10.213.${process.pid % 250}`;
  const udpPort = 40_000 + (process.pid % 1000);
  let listeners: ChildProcess;
  let heard = '';

  before(async () => {
    const ip = (...args: string[]) => execFileSync('ip', args, { stdio: 'pipe' });
    ip('netns', 'add', name);
    ip('link', 'add', `${name}-a`, 'type', 'veth', 'peer', 'name', `${name}-b`);
    ip('link', 'set', `${name}-b`, 'netns', name);
    ip('addr', 'add', `${subnet}.1/30`, 'dev', `${name}-a`);
    ip('link', 'set', `${name}-a`, 'up');
    ip('netns', 'exec', name, 'ip', 'addr', 'add', `${subnet}.2/30`, 'dev', `${name}-b`);
    ip('netns', 'exec', name, 'ip', 'link', 'set', `${name}-b`, 'up');
    ip('netns', 'exec', name, 'ip', 'link', 'set', 'lo', 'up');
    // The listeners print one line per datagram or connection.
    const program =
      `const d=require('dgram').createSocket('udp4');d.on('message',(m)=>console.log('udp '+m.length));d.bind(${udpPort},'${subnet}.2');` +
      `require('net').createServer((s)=>{console.log('tcp');s.destroy()}).listen(${udpPort},'${subnet}.2',()=>console.log('ready'))`;
    listeners = spawn('ip', ['netns', 'exec', name, process.execPath, '-e', program], { stdio: ['ignore', 'pipe', 'inherit'] });
    listeners.stdout!.on('data', (chunk) => {
      heard += chunk;
    });
    while (!heard.includes('ready')) await new Promise((resolve) => setTimeout(resolve, 50));
    // The control: from this machine, the listener does hear.
    const socket = createSocket('udp4');
    await new Promise<void>((resolve, reject) => socket.send('control', udpPort, `${subnet}.2`, (e) => (e ? reject(e) : resolve())));
    socket.close();
    while (!heard.includes('udp 7')) await new Promise((resolve) => setTimeout(resolve, 50));
    heard = '';
  });

  after(() => {
    listeners.kill();
    execFileSync('ip', ['netns', 'delete', name]);
  });

  test('ICE checks to an address the case chooses, and plain requests to it, never arrive', async () => {
    const oracle = new OracleProcess(ONE_PAGE);
    try {
      await oracle.ready();
      const ice =
        '(async()=>{const pc=new RTCPeerConnection();pc.createDataChannel("x");const offer=await pc.createOffer();' +
        'await pc.setLocalDescription(offer);await pc.setRemoteDescription({type:"answer",sdp:offer.sdp.replace("a=setup:actpass","a=setup:active").replace(/a=ice-ufrag:\\S+/,"a=ice-ufrag:EXFIL")});' +
        `await pc.addIceCandidate({candidate:"candidate:1 1 udp 2122260223 ${subnet}.2 ${udpPort} typ host",sdpMid:"0",sdpMLineIndex:0});` +
        'trace.value("ice", true)})().catch((e)=>trace.error("ice",e));' +
        `fetch("http://${subnet}.2:${udpPort}/",{mode:"no-cors"}).catch(()=>{});setTimeout(()=>trace.done(),3000)`;
      const answer = await oracle.request({ id: 'ice', op: 'trace', script: ice });
      assert.equal(answer.errors, undefined, JSON.stringify(answer.errors));
      // What a case may have started must have had its chance to leak.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      assert.equal(heard, '', 'the test host heard a case');
      assert.deepEqual(Object.keys(answer.traces), [...ENGINE_NAMES]);
    } finally {
      await oracle.shutdown();
    }
  });
});
