import { Button, Dialog, DialogActions, DialogBody, DialogContent, DialogSurface, DialogTitle, MessageBar, MessageBarBody, makeStyles } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { LoadingState } from '@tongdai/ui';
import { ORG } from './org.entities';
import { ORG_NS } from './org.i18n';
import { OrgField } from './OrgField';
import { OrgListScreen } from './OrgListScreen';
import { useOrgForm } from './useOrgForm';

const useStyles = makeStyles({ fields: { display: 'flex', flexDirection: 'column', gap: '12px' } });

/** /groups: the list, with create and edit in a dialog whose state is ?dialog=new|<id> (back closes it). */
export default function GroupsScreen() {
  const [params, setParams] = useSearchParams();
  const dialog = params.get('dialog');
  const open = (value: string | null) => {
    const p = new URLSearchParams(params);
    if (value) p.set('dialog', value);
    else p.delete('dialog');
    setParams(p);
  };
  const id = dialog && /^\d+$/.test(dialog) ? Number(dialog) : null;
  return (
    <>
      <OrgListScreen entity={ORG.group} onEdit={(r) => open(String(r.id))} />
      {dialog && <GroupDialog key={dialog} id={id} onClose={() => open(null)} />}
    </>
  );
}

function GroupDialog({ id, onClose }: { id: number | null; onClose: () => void }) {
  const s = useStyles();
  const { t } = useTranslation(ORG_NS);
  const { existing, form, submit, formError, saving } = useOrgForm(ORG.group, id);
  const save = async () => { if (await submit()) onClose(); };
  return (
    <Dialog open onOpenChange={(_, d) => !d.open && onClose()}>
      <DialogSurface data-testid="group-form">
        <form onSubmit={(e) => { e.preventDefault(); void save(); }} noValidate>
          <DialogBody>
            <DialogTitle>{t(id === null ? 'group.addTitle' : 'group.editTitle')}</DialogTitle>
            <DialogContent className={s.fields}>
              {formError && <MessageBar intent="error" data-testid="form-error"><MessageBarBody>{formError}</MessageBarBody></MessageBar>}
              {id !== null && existing.isPending ? <LoadingState /> : ORG.group.fields.map((f) => (
                <OrgField key={f.name} field={f} value={form.draft[f.name]} error={form.errors[f.name]} onChange={form.set(f.name)} />
              ))}
            </DialogContent>
            <DialogActions>
              <Button appearance="secondary" type="button" onClick={onClose}>{t('cancel', { ns: 'ui' })}</Button>
              <Button appearance="primary" type="submit" disabled={saving} data-testid="save">{t('save', { ns: 'ui' })}</Button>
            </DialogActions>
          </DialogBody>
        </form>
      </DialogSurface>
    </Dialog>
  );
}
