// Loaded (node --import) into a target that instructions.sh counts with several requests in flight:
// its HTTP servers keep an idle connection open without a deadline (keepAliveTimeout 0, as the
// simulator beside it). Under valgrind one turn of the target's loop over 32 requests can outlast
// the 5 s keep-alive timer a response arms, which then fires before the loop reads the next request
// already sent on that connection: the connection is cut and that request lost (an autocannon
// error or timeout, which fails the count). Production runs at a pace where that cannot happen.
import { Server } from 'node:http';

const listen = Server.prototype.listen;
Server.prototype.listen = function untimedKeepAlive(...args) {
  this.keepAliveTimeout = 0;
  return listen.apply(this, args);
};
