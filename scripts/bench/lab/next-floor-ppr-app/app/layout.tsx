export { default } from "../../next-floor-app/app/layout";
