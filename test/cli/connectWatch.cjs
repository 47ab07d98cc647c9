// Preloaded (NODE_OPTIONS=--require) into every process of a faultline run, and into its worker
// threads: appends every TCP connection to a host other than this machine to FAULTLINE_CONNECT_LOG,
// before any lookup, so a request that would leave is seen whether or not a network is there.
const net = require('node:net');
const { appendFileSync } = require('node:fs');
const log = process.env.FAULTLINE_CONNECT_LOG;
const loopback = (host) => host === 'localhost' || /^127\./.test(host) || host === '::1' || host === '[::1]';
const connect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function (...args) {
  const first = Array.isArray(args[0]) ? args[0][0] : args[0];
  // (options) or (port, host): a Unix socket path has no host, and is this machine.
  const host =
    typeof first === 'object' && first !== null
      ? (first.host ?? first.hostname ?? 'localhost')
      : typeof args[1] === 'string'
        ? args[1]
        : 'localhost';
  const port = typeof first === 'object' && first !== null ? first.port : first;
  if (log && !loopback(host)) appendFileSync(log, `${host}:${port}\n`);
  return connect.apply(this, args);
};
