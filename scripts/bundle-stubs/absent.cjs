// Stands in for optional packages that @nestjs/core probes for HTTP/microservice apps
// (`optionalRequire`), which an application context never uses. Requiring it behaves as
// "not installed", exactly what Nest does when the package is missing.
'use strict';
const err = new Error('optional Nest package left out of the awf bundle');
err.code = 'MODULE_NOT_FOUND';
throw err;
