// @nestjs/common as nestjs-otel's MetricService sees it inside dist/awf-metrics.cjs: it only
// marks the class @Injectable(), and awf makes the service with `new`, outside any container.
// A real second copy of Nest beside the snapshot's would cost its load and its heap.
exports.Injectable = () => (target) => target;
