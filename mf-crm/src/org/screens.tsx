import { ORG } from './org.entities';
import { OrgFormScreen } from './OrgFormScreen';
import { OrgListScreen } from './OrgListScreen';

/** Route components of the organisation area: the generic screens bound to each entity. */
export const DepartmentList = () => <OrgListScreen entity={ORG.department} />;
export const DepartmentForm = () => <OrgFormScreen entity={ORG.department} />;
export const TeamList = () => <OrgListScreen entity={ORG.team} />;
export const TeamForm = () => <OrgFormScreen entity={ORG.team} />;
export const BranchList = () => <OrgListScreen entity={ORG.branch} />;
export const BranchForm = () => <OrgFormScreen entity={ORG.branch} />;
export const ProjectList = () => <OrgListScreen entity={ORG.project} />;
export const ProjectForm = () => <OrgFormScreen entity={ORG.project} />;
export const DataSourceList = () => <OrgListScreen entity={ORG.dataSource} />;
export const DataSourceForm = () => <OrgFormScreen entity={ORG.dataSource} />;
export const ProfileStatusList = () => <OrgListScreen entity={ORG.profileStatus} />;
export const ProfileStatusForm = () => <OrgFormScreen entity={ORG.profileStatus} />;
