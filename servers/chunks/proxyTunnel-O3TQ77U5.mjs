/*! openviking-codebuddy (Apache-2.0, LICENSE) bundles third-party code here: its licences are in THIRD_PARTY_NOTICES.md at the plugin root. */
import { createRequire as __ovCreateRequire } from 'node:module';
const require = __ovCreateRequire(import.meta.url);
import {
  socketError,
  transportError
} from "./chunk-IR6DMAYW.mjs";
import {
  errorCode,
  errorMessage
} from "./chunk-FYQ2Q3BF.mjs";

// src/openviking/proxyTunnel.ts
var MAX_CONNECT_HEAD_BYTES = 16 * 1024;
function bare(host) {
  return host.startsWith("[") ? host.slice(1, -1) : host;
}
function serverIdentity(host, tls, net) {
  return {
    ...net.isIP(host) === 0 ? { servername: host } : {},
    checkServerIdentity: (_name, certificate) => tls.checkServerIdentity(host, certificate)
  };
}
async function openConnection(url, alpn) {
  const host = bare(url.hostname);
  if (url.protocol === "https:") {
    const [tls, net2] = await Promise.all([import("node:tls"), import("node:net")]);
    return tls.connect({
      host,
      port: Number(url.port || 443),
      ...serverIdentity(host, tls, net2),
      ...alpn ? { ALPNProtocols: ["http/1.1"] } : {}
    });
  }
  const net = await import("node:net");
  return net.connect({ host, port: Number(url.port || 80) });
}
function connectToProxy(route) {
  return openConnection(route.proxy, false);
}
async function tunnelTls(target, route, timeoutMs) {
  const [tls, net] = await Promise.all([import("node:tls"), import("node:net")]);
  const proxySocket = await connectToProxy(route);
  const host = bare(target.hostname);
  const authority = `${target.hostname}:${target.port || 443}`;
  return new Promise((resolve, reject) => {
    let head = Buffer.alloc(0);
    let secured;
    const timer = setTimeout(
      () => fail(transportError("timeout", `proxy tunnel not established within ${timeoutMs} ms`)),
      Math.max(1, timeoutMs)
    );
    function fail(error) {
      clearTimeout(timer);
      proxySocket.off("data", onData);
      proxySocket.destroy();
      secured?.destroy();
      reject(error);
    }
    const onError = (error) => fail(socketError(error, `proxy ${route.proxy.host}: `));
    const onClose = () => fail(transportError("network", `proxy ${route.proxy.host} closed the connection before the tunnel was up`));
    function onData(chunk) {
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf("\r\n\r\n");
      if (end === -1) {
        if (head.length > MAX_CONNECT_HEAD_BYTES) fail(transportError("network", "proxy CONNECT answer too large"));
        return;
      }
      proxySocket.off("data", onData);
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(head.toString("latin1", 0, end));
      if (status === null || !(status[1] ?? "").startsWith("2")) {
        return fail(
          transportError(
            "network",
            `proxy ${route.proxy.host} refused CONNECT ${authority}: ${status === null ? "not an HTTP answer" : `status ${status[1]}`}`
          )
        );
      }
      if (head.length > end + 4) return fail(transportError("network", "proxy sent bytes before the TLS handshake"));
      proxySocket.off("error", onError).off("close", onClose);
      secured = tls.connect({
        socket: proxySocket,
        host,
        ...serverIdentity(host, tls, net),
        ALPNProtocols: ["http/1.1"]
      });
      secured.once("secureConnect", () => {
        clearTimeout(timer);
        secured?.off("error", onSecureError);
        resolve(secured);
      });
      secured.once("error", onSecureError);
    }
    const onSecureError = (error) => fail(transportError("network", errorMessage(error), errorCode(error)));
    proxySocket.on("data", onData).on("error", onError).on("close", onClose);
    const lines = [`CONNECT ${authority} HTTP/1.1`, `Host: ${authority}`];
    if (route.authorization !== void 0) lines.push(`Proxy-Authorization: ${route.authorization}`);
    proxySocket.write(`${lines.join("\r\n")}\r
\r
`);
  });
}
export {
  connectToProxy,
  openConnection,
  tunnelTls
};
