/** `@aplt/service-devprojects/projects`: a dev project created and committed to (fleet seed). */
export { commit, createProject } from '../projects/project.service';
