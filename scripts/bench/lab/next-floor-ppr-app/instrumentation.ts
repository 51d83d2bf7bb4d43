export { register } from "../next-floor-app/instrumentation";
