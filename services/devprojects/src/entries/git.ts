/** `@aplt/service-devprojects/git`: the dev projects' git repositories and their bot. */
export { GitRepositories, gitRepositoriesFromConfig } from '../git/bot-repository';
export { GitRepository } from '../git/git-repository';
