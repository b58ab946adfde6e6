import { useState } from 'react';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { FluentProvider, webLightTheme } from '@fluentui/react-components';
import { BarPopover } from './BarPopover';

function Bar() {
  const [open, setOpen] = useState(false);
  return (
    <FluentProvider theme={webLightTheme}>
      <button data-testid="behind">Màn hình phía sau</button>
      <BarPopover label="Hộp thư thoại" icon={<span>✉</span>} testId="bar" open={open} onOpenChange={setOpen}>
        <button data-testid="inside">Nghe</button>
      </BarPopover>
    </FluentProvider>
  );
}

describe('BarPopover', () => {
  it('stays open when the page moves the focus outside it; a click outside or Escape closes it', async () => {
    render(<Bar />);
    fireEvent.click(screen.getByTestId('bar'));
    const inside = await screen.findByTestId('inside');
    act(() => inside.focus());
    // A screen behind restores its own focus (what closed the voicemail panel while a message loaded).
    act(() => screen.getByTestId('behind').focus());
    expect(screen.queryByTestId('inside')).not.toBeNull();
    // Escape closes it.
    fireEvent.keyDown(screen.getByTestId('inside'), { key: 'Escape' });
    expect(screen.queryByTestId('inside')).toBeNull();
    // So does a click outside.
    fireEvent.click(screen.getByTestId('bar'));
    await screen.findByTestId('inside');
    fireEvent.mouseDown(document.body);
    fireEvent.click(document.body);
    expect(screen.queryByTestId('inside')).toBeNull();
  });
});
